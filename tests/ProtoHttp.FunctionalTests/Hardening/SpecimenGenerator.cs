using System.Globalization;
using System.Text;
using Google.Protobuf;
using Google.Protobuf.WellKnownTypes;
using Leaf = ProtoHttp.FunctionalTests.Hardening.SpecimenText.Leaf;

namespace ProtoHttp.FunctionalTests.Hardening;

/// <summary>
/// Random valid <see cref="Specimen"/>s, each with its fields written out as text by this class from the values it
/// chose (docs/protocol.md section 4's text forms: decimal integers, round-trip floats with INF/-INF/NaN, bools in
/// any case or as 1/0, enums by name or number, base64, RFC 3339 and "1.5s"): the message is the oracle, the text
/// what is sent. <c>formOnly</c> keeps to what a form or query string can carry (no repeated message, no message
/// map, no Struct or Any, no empty message, no empty repeated string).
/// </summary>
public sealed class SpecimenGenerator(Random random, bool formOnly)
{
    private static readonly string[] TextPieces =
    [
        "a", "héllo", " ", "<&>", "\"'", "+", "%", "&=", "%2B", "[x]", ".", "\t", "\n", "\r\n", "😀", "中文", "ß", "0", "-1", "true", "a+b", "#",
    ];

    private static readonly string[] KeyPieces = ["a", "b", "key", "é", " ", "1", "z_z"];

    public (Specimen Message, IReadOnlyList<SpecimenText> Fields) Next() => Next(depth: 0);

    private (Specimen, List<SpecimenText>) Next(int depth)
    {
        var message = new Specimen();
        var fields = new List<SpecimenText>();
        void Maybe(Action add)
        {
            if (random.Next(3) == 0)
            {
                add();
            }
        }

        Maybe(() => message.I32 = Scalar("i32", Int32(), LeafKind.Signed32, fields));
        Maybe(() => message.I64 = Scalar("i64", Int64(), LeafKind.Signed64, fields));
        Maybe(() => message.U32 = Scalar("u32", (uint)Int32(), LeafKind.Unsigned32, fields));
        Maybe(() => message.U64 = Scalar("u64", (ulong)Int64(), LeafKind.Unsigned64, fields));
        Maybe(() => message.S32 = Scalar("s32", Int32(), LeafKind.Signed32, fields));
        Maybe(() => message.S64 = Scalar("s64", Int64(), LeafKind.Signed64, fields));
        Maybe(() => message.F32 = Scalar("f32", (uint)Int32(), LeafKind.Unsigned32, fields));
        Maybe(() => message.F64 = Scalar("f64", (ulong)Int64(), LeafKind.Unsigned64, fields));
        Maybe(() => message.Sf32 = Scalar("sf32", Int32(), LeafKind.Signed32, fields));
        Maybe(() => message.Sf64 = Scalar("sf64", Int64(), LeafKind.Signed64, fields));
        Maybe(() =>
        {
            var (value, text) = Float();
            message.Flt = value;
            fields.Add(new Leaf("flt", "flt", text, LeafKind.Floating));
        });
        Maybe(() =>
        {
            var (value, text) = Double();
            message.Dbl = value;
            fields.Add(new Leaf("dbl", "dbl", text, LeafKind.Floating));
        });
        Maybe(() =>
        {
            message.Flag = random.Next(2) == 0;
            fields.Add(new Leaf("flag", "flag", Bool(message.Flag), LeafKind.Bool));
        });
        Maybe(() =>
        {
            message.Text = Text(allowEmpty: true);
            fields.Add(new Leaf("text", "text", message.Text, LeafKind.Text));
        });
        Maybe(() =>
        {
            var bytes = new byte[random.Next(9)];
            random.NextBytes(bytes);
            message.Data = ByteString.CopyFrom(bytes);
            fields.Add(new Leaf("data", "data", Base64(bytes), LeafKind.Bytes));
        });
        Maybe(() =>
        {
            message.Color = random.Pick(new[] { Color.Unspecified, Color.Red, Color.Green });
            fields.Add(new Leaf("color", "color", Enum(message.Color), LeafKind.Enum));
        });
        if (depth < 2)
        {
            Maybe(() =>
            {
                var (child, childFields) = Next(depth + 1);
                if (!formOnly || childFields.Count > 0)
                {
                    message.Child = child;
                    fields.Add(new SpecimenText.Message("child", "child", childFields));
                }
            });
            if (!formOnly)
            {
                Maybe(() =>
                {
                    for (var i = random.Next(1, 3); i > 0; i--)
                    {
                        var (child, childFields) = Next(depth + 1);
                        message.Children.Add(child);
                        fields.Add(new SpecimenText.Message("children", "children", childFields));
                    }
                });
                Maybe(() =>
                {
                    var key = Int32();
                    var (child, childFields) = Next(depth + 1);
                    message.ById[key] = child;
                    fields.Add(new SpecimenText.MapEntry("by_id", "byId", Key(key.ToString(CultureInfo.InvariantCulture), LeafKind.Signed32), new SpecimenText.Message("value", "value", childFields)));
                });
            }
        }

        Maybe(() =>
        {
            for (var i = random.Next(1, 4); i > 0; i--)
            {
                var tag = Text(allowEmpty: !formOnly);
                message.Tags.Add(tag);
                fields.Add(new Leaf("tags", "tags", tag, LeafKind.Text));
            }
        });
        Maybe(() =>
        {
            for (var i = random.Next(1, 4); i > 0; i--)
            {
                message.Numbers.Add(Scalar("numbers", Int32(), LeafKind.Signed32, fields));
            }
        });
        Maybe(() =>
        {
            foreach (var key in KeyPieces.OrderBy(_ => random.Next()).Take(random.Next(1, 3)))
            {
                var value = Int64();
                message.Counts[key] = value;
                fields.Add(new SpecimenText.MapEntry("counts", "counts", Key(key, LeafKind.Text), new Leaf("value", "value", Invariant(value), LeafKind.Signed64)));
            }
        });
        switch (random.Next(3))
        {
            case 0:
                message.Name = Text(allowEmpty: !formOnly);
                fields.Add(new Leaf("name", "name", message.Name, LeafKind.Text));
                break;
            case 1:
                message.Code = Scalar("code", Int32(), LeafKind.Signed32, fields);
                break;
        }

        Maybe(() =>
        {
            message.At = new Timestamp { Seconds = random.NextInt64(-62135596800, 253402300800), Nanos = random.Pick(new[] { 0, 500_000_000, 123_456_789, 1_000 }) };
            fields.Add(new Leaf("at", "at", Unquoted(message.At), LeafKind.Timestamp));
        });
        Maybe(() =>
        {
            var seconds = random.NextInt64(-315_576_000_000, 315_576_000_001);
            var nanos = seconds == 0 ? random.Pick(new[] { 0, 1, -5_000 }) : Math.Sign(seconds) * random.Pick(new[] { 0, 500_000_000, 999_999_999 });
            message.Took = new Duration { Seconds = seconds, Nanos = nanos };
            fields.Add(new Leaf("took", "took", Unquoted(message.Took), LeafKind.Duration));
        });
        Maybe(() =>
        {
            message.Maybe = Int32();
            fields.Add(new Leaf("maybe", "maybe", Invariant(message.Maybe.Value), LeafKind.Int32Wrapper));
        });
        Maybe(() =>
        {
            message.Label = Text(allowEmpty: !formOnly);
            fields.Add(new Leaf("label", "label", message.Label, LeafKind.Text));
        });
        Maybe(() =>
        {
            message.Mask = new FieldMask { Paths = { random.Pick(new[] { "a", "a.b", "foo_bar", "x.y_z" }), "c" } };
            fields.Add(new Leaf("mask", "mask", Unquoted(message.Mask), LeafKind.Text));
        });
        if (!formOnly)
        {
            Maybe(() =>
            {
                message.Extra = Struct.Parser.ParseJson(random.Pick(new[] { """{"k":[1,"v",null,true]}""", """{"o":{"p":2.5},"s":"<&>"}""", "{}" }));
                fields.Add(new Leaf("extra", "extra", JsonFormatter.Default.Format(message.Extra), LeafKind.Text));
            });
            Maybe(() =>
            {
                var packed = new Timestamp { Seconds = random.Next() };
                message.Any = Any.Pack(packed);
                fields.Add(new SpecimenText.Message("any", "any", [
                    new Leaf("type_url", "typeUrl", message.Any.TypeUrl, LeafKind.Text),
                    new Leaf("value", "value", Convert.ToBase64String(message.Any.Value.ToByteArray()), LeafKind.Bytes),
                ]));
            });
        }

        Maybe(() =>
        {
            for (var i = random.Next(1, 3); i > 0; i--)
            {
                var color = random.Pick(new[] { Color.Red, Color.Green, Color.Unspecified });
                message.Colors.Add(color);
                fields.Add(new Leaf("colors", "colors", Enum(color), LeafKind.Enum));
            }
        });
        return (message, fields);
    }

    private static T Scalar<T>(string name, T value, LeafKind kind, List<SpecimenText> fields)
        where T : IFormattable
    {
        fields.Add(new Leaf(name, name, value.ToString(null, CultureInfo.InvariantCulture), kind));
        return value;
    }

    private static Leaf Key(string text, LeafKind kind) => new("key", "key", text, kind);

    private int Int32() => random.Next(6) switch
    {
        0 => int.MinValue,
        1 => int.MaxValue,
        2 => 0,
        3 => -1,
        _ => random.Next(int.MinValue, int.MaxValue),
    };

    private long Int64() => random.Next(6) switch
    {
        0 => long.MinValue,
        1 => long.MaxValue,
        2 => 9_007_199_254_740_993, // past a double's exact integers: read as an integer, never through a double
        3 => -1,
        _ => random.NextInt64(long.MinValue, long.MaxValue),
    };

    private (float, string) Float() => random.Next(7) switch
    {
        0 => (float.PositiveInfinity, random.Pick(new[] { "INF", "Infinity" })),
        1 => (float.NegativeInfinity, "-INF"),
        2 => (float.NaN, "NaN"),
        3 => (float.MaxValue, float.MaxValue.ToString("R", CultureInfo.InvariantCulture)),
        4 => (float.MinValue, "-3.4028235E+38"), // not -0: Google.Protobuf writes a proto3 -0 as unset, so no answer can carry it
        5 => (float.Epsilon, float.Epsilon.ToString("R", CultureInfo.InvariantCulture)),
        _ => RoundTrip((float)((random.NextDouble() * 2e6) - 1e6)),
    };

    private (double, string) Double() => random.Next(6) switch
    {
        0 => (double.PositiveInfinity, "INF"),
        1 => (double.NegativeInfinity, "-INF"),
        2 => (double.NaN, "NaN"),
        3 => (-1.5e300, "-1.5E+300"),
        4 => (5e-324, "5E-324"),
        _ => RoundTrip((random.NextDouble() - 0.5) * Math.Pow(10, random.Next(-20, 20))),
    };

    private static (float, string) RoundTrip(float value) => (value, value.ToString("R", CultureInfo.InvariantCulture));

    private static (double, string) RoundTrip(double value) => (value, value.ToString("R", CultureInfo.InvariantCulture));

    private string Bool(bool value) => random.Next(4) switch
    {
        0 => value ? "1" : "0",
        1 => value ? "TRUE" : "False",
        _ => value ? "true" : "false",
    };

    private string Enum(Color color) => random.Next(3) == 0
        ? ((int)color).ToString(CultureInfo.InvariantCulture)
        : color switch { Color.Red => "RED", Color.Green => "GREEN", _ => "COLOR_UNSPECIFIED" };

    private string Base64(byte[] bytes)
    {
        var text = Convert.ToBase64String(bytes);
        // docs/protocol.md section 4: forms take standard or URL-safe base64, padding optional.
        return formOnly && random.Next(2) == 0 ? text.TrimEnd('=').Replace('+', '-').Replace('/', '_') : text;
    }

    private string Text(bool allowEmpty)
    {
        var text = new StringBuilder();
        for (var i = random.Next(allowEmpty ? 0 : 1, 5); i > 0; i--)
        {
            text.Append(random.Pick(TextPieces));
        }

        return text.ToString();
    }

    private static string Invariant(long value) => value.ToString(CultureInfo.InvariantCulture);

    // Google.Protobuf's own JSON text of a well-known type (not the codec under test), without its quotes.
    private static string Unquoted(IMessage message) => JsonFormatter.Default.Format(message).Trim('"');
}
