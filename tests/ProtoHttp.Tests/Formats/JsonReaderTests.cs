using System.Buffers;
using System.Text;
using Google.Protobuf;
using Google.Protobuf.Reflection;
using ProtoHttp.Json;
using ProtoHttp.Tests.Protos;
using ProtoHttp.Tests.Protos.Proto2;

namespace ProtoHttp.Tests.Formats;

/// <summary>
/// The native JSON reader against Google.Protobuf's JsonParser: where JsonParser reads a body, the reader returns an
/// equal message; where JsonParser throws, the reader throws <see cref="InvalidMessageException"/>.
/// </summary>
public class JsonReaderTests
{
    private static readonly FormatOptions Strict = FormatOptions.Default;
    private static readonly FormatOptions Lenient = new() { IgnoreUnknownFields = true };

    private static readonly MessageDescriptor[] RandomDescriptors =
        [AllTypes.Descriptor, Scalars.Descriptor, Repeated.Descriptor, Maps.Descriptor, Choice.Descriptor, Optionals.Descriptor, WellKnown.Descriptor, Legacy.Descriptor];

    public static TheoryData<string, bool> Samples() => AllTypesSamples.NamesWithBothJsonNameStyles();

    [Theory]
    [MemberData(nameof(Samples))]
    public void AllTypesSamplesReadAsJsonParserReadsThem(string sample, bool protoNames) =>
        AssertFormattedReadsSame(AllTypesSamples.All[sample], protoNames);

    [Theory]
    [InlineData(false)]
    [InlineData(true)]
    public void NorthwindOrdersReadAsJsonParserReadsThem(bool protoNames)
    {
        AssertFormattedReadsSame(NorthwindData.All, protoNames);
        foreach (var order in NorthwindData.All.Orders)
        {
            AssertFormattedReadsSame(order, protoNames);
        }
    }

    [Fact]
    public void SeededRandomMessagesReadAsJsonParserReadsThem()
    {
        var random = new Random(20261123);
        for (var i = 0; i < 400; i++)
        {
            AssertFormattedReadsSame(JsonWriterSamples.Random(RandomDescriptors[i % RandomDescriptors.Length], random), protoNames: i % 2 == 0);
        }
    }

    [Fact]
    public void ScalarValuesAreAcceptedAndRefusedAsJsonParserDoes()
    {
        var failures = new List<string>();
        foreach (var descriptor in new[] { Scalars.Descriptor, Optionals.Descriptor, WellKnown.Descriptor, Legacy.Descriptor, Choice.Descriptor })
        {
            foreach (var field in descriptor.Fields.InDeclarationOrder())
            {
                foreach (var value in ScalarCorpus)
                {
                    var body = field.IsMap ? $"{{\"{field.JsonName}\": {{\"1\": {value}, \"k\": {value}, \"true\": {value}}}}}"
                        : field.IsRepeated ? $"{{\"{field.JsonName}\": [{value}, {value}]}}"
                        : $"{{\"{field.Name}\": {value}}}";
                    Compare(body, descriptor, Strict, failures);
                    Compare(body, descriptor, Lenient, failures);
                }
            }
        }

        Assert.True(failures.Count == 0, string.Join("\n", failures.Take(50)) + $"\n({failures.Count} differences)");
    }

    [Fact]
    public void MapKeysAreAcceptedAndRefusedAsJsonParserDoes()
    {
        var failures = new List<string>();
        foreach (var field in Maps.Descriptor.Fields.InDeclarationOrder())
        {
            foreach (var key in MapKeyCorpus)
            {
                foreach (var value in new[] { "1", "\"1\"", "true", "{}", "null", "\"COLOR_RED\"", "\"1970-01-01T00:00:00Z\"" })
                {
                    Compare($"{{\"{field.JsonName}\": {{{key}: {value}}}}}", Maps.Descriptor, Strict, failures);
                    Compare($"{{\"{field.Name}\": {{{key}: {value}}}}}", Maps.Descriptor, Lenient, failures);
                }
            }
        }

        Assert.True(failures.Count == 0, string.Join("\n", failures.Take(50)) + $"\n({failures.Count} differences)");
    }

    [Fact]
    public void StructuralCasesAreAcceptedAndRefusedAsJsonParserDoes()
    {
        var failures = new List<string>();
        foreach (var (descriptor, body) in StructuralCorpus())
        {
            Compare(body, descriptor, Strict, failures);
            Compare(body, descriptor, Lenient, failures);
            Compare(body, descriptor, new FormatOptions { MaxDepth = 3 }, failures);
        }

        Assert.True(failures.Count == 0, string.Join("\n", failures.Take(50)) + $"\n({failures.Count} differences)");
    }

    [Theory]
    [InlineData(new byte[] { (byte)'{', (byte)'"', 0xFF, (byte)'"', (byte)':', (byte)'1', (byte)'}' })]
    [InlineData(new byte[] { (byte)'{', (byte)'"', 0xC3, (byte)'"', (byte)':', (byte)'1', (byte)'}' })]
    [InlineData(new byte[] { 0xEF, 0xBB, 0xBF, (byte)'{', (byte)'}' })]
    [InlineData(new byte[] { (byte)'{', (byte)'}', 0xE2, 0x82 })]
    [InlineData(new byte[] { (byte)'{', (byte)'"', (byte)'a', (byte)'"', (byte)':', (byte)'"', 0xED, 0xA0, 0x80, (byte)'"', (byte)'}' })]
    public void InvalidBytesAreRefused(byte[] body)
    {
        for (var segment = 1; segment <= body.Length; segment++)
        {
            Assert.Throws<InvalidMessageException>(() => Codec(Lenient).Read(SegmentedSequence.Create(body, segment), Scalars.Descriptor));
        }
    }

    [Fact]
    public void InvalidUtf8IsNamedAsSuch()
    {
        var error = Assert.Throws<InvalidMessageException>(() => Codec(Strict).Read(new ReadOnlySequence<byte>([(byte)'"', 0xFF, (byte)'"']), Scalars.Descriptor));
        Assert.Equal("The JSON body is not valid UTF-8.", error.Message);
    }

    [Fact]
    public void MultiByteCharactersSplitAcrossSegmentsAreRead()
    {
        var message = new Scalars { StringValue = "ü € 😀 𝄞 Chang", Tags = { "日本語", "ß" } };
        var body = Encoding.UTF8.GetBytes(new JsonFormatter(JsonFormatter.Settings.Default).Format(message).Replace("\\u", "\\u", StringComparison.Ordinal));
        var raw = Encoding.UTF8.GetBytes("{\"stringValue\": \"ü € 😀 𝄞 Chang\", \"tags\": [\"日本語\", \"ß\"]}");
        for (var segment = 1; segment <= raw.Length; segment++)
        {
            Assert.Equal(message, Codec(Strict).Read(SegmentedSequence.Create(raw, segment), Scalars.Descriptor));
            Assert.Equal(message, Codec(Strict).Read(SegmentedSequence.Create(body, Math.Min(segment, body.Length)), Scalars.Descriptor));
        }
    }

    [Fact]
    public void ErrorsNameTheFieldAndTheValue()
    {
        var error = CodecHelpers.ReadFails(CodecNames.Json, "{\"int32Value\": 1.5}", Scalars.Descriptor);
        Assert.Contains("int32_value", error.Message, StringComparison.Ordinal);
        Assert.Contains("1.5", error.Message, StringComparison.Ordinal);
        Assert.Contains("nope", CodecHelpers.ReadFails(CodecNames.Json, "{\"nope\": 1}", Scalars.Descriptor).Message, StringComparison.Ordinal);
    }

    [Fact]
    public void DocumentedQuirksHold()
    {
        Assert.Equal(9007199254740992, CodecHelpers.Read<Scalars>(CodecNames.Json, "{\"int64Value\": 9007199254740993}").Int64Value);
        Assert.Equal(1, CodecHelpers.Read<Scalars>(CodecNames.Json, "{\"created\": \"1970-01-01T00:00:01Z\\n\"}").Created.Seconds);
        Assert.Equal([Color.Red, Color.Blue], ((Scalars)Codec(Lenient).Read(
            new ReadOnlySequence<byte>("{\"colors\": [\"COLOR_RED\", \"NOPE\", \"COLOR_BLUE\"]}"u8.ToArray()), Scalars.Descriptor)).Colors);
    }

    [Theory]
    [InlineData("{\"int32Value\": 1, \"int32_value\": 2}")]
    [InlineData("{\"int32Value\": 1, \"int32Value\": null}")]
    [InlineData("{\"tags\": [\"a\"], \"tags\": [\"b\"]}")]
    [InlineData("{\"optionalInt32\": 1, \"optionalInt32\": 2}")]
    public void AFieldGivenTwiceIsRefused(string body)
    {
        // JsonParser keeps the last value; the protobuf JSON spec (conformance: FieldNameDuplicate) refuses it.
        var error = CodecHelpers.ReadFails(CodecNames.Json, body, Scalars.Descriptor);
        Assert.Contains("more than once", error.Message, StringComparison.Ordinal);
    }

    [Theory]
    [InlineData("-_8=", new byte[] { 0xfb, 0xff })]
    [InlineData("-_-_", new byte[] { 0xfb, 0xff, 0xbf })]
    [InlineData("-_8", new byte[] { 0xfb, 0xff })]
    [InlineData("AQ", new byte[] { 1 })]
    [InlineData("AQ==", new byte[] { 1 })]
    public void BytesTakeUrlSafeAndUnpaddedBase64(string text, byte[] expected)
    {
        var read = CodecHelpers.Read<Scalars>(CodecNames.Json, $"{{\"bytesValue\": \"{text}\"}}");
        Assert.Equal(expected, read.BytesValue.ToByteArray());
    }

    [Fact]
    public void ANullOneofMemberSetsNothing()
    {
        Assert.Equal("x", CodecHelpers.Read<Choice>(CodecNames.Json, "{\"number\": null, \"text\": \"x\"}").Text);
        Assert.Equal("x", CodecHelpers.Read<Choice>(CodecNames.Json, "{\"text\": \"x\", \"number\": null}").Text);
        CodecHelpers.ReadFails(CodecNames.Json, "{\"number\": 1, \"text\": \"x\"}", Choice.Descriptor);
        var nested = CodecHelpers.ReadFails(CodecNames.Json, "{\"message\": {\"value\": 1, \"value\": 2}}", Choice.Descriptor);
        Assert.Contains("Nested.value", nested.Message, StringComparison.Ordinal);
    }

    [Fact]
    public void ConcurrentReadersShareThePlansSafely()
    {
        var codec = Codec(Strict);
        var formatter = new JsonFormatter(JsonFormatter.Settings.Default);
        Parallel.For(0, 200, i =>
        {
            var message = i % 2 == 0 ? AllTypesSamples.All["all-types"] : NorthwindData.All.Orders[i];
            Assert.Equal(message, codec.Read(new ReadOnlySequence<byte>(Encoding.UTF8.GetBytes(formatter.Format(message))), message.Descriptor));
        });
    }

    private static readonly string[] ScalarCorpus =
    [
        "0", "1", "-1", "-0", "1.0", "1.5", "1e2", "1E+2", "1e-2", "-1.5e1", "0.0", "1e400", "-1e400", "1e-400",
        "2147483647", "2147483648", "-2147483648", "-2147483649", "4294967295", "4294967296",
        "9007199254740993", "9223372036854775807", "9223372036854775808", "-9223372036854775809",
        "18446744073709551615", "18446744073709551616", "3.4028235e38", "3.5e38", "1e39",
        "\"0\"", "\"1\"", "\"-1\"", "\"-0\"", "\"1.0\"", "\"1.\"", "\"1.5\"", "\"1e2\"", "\"-.5e1\"", "\".5\"", "\"+1\"", "\"01\"", "\"-01\"",
        "\" 1\"", "\"1 \"", "\"\"", "\"1\\u0000\"", "\"0x10\"", "\"1,000\"", "\"2147483648\"", "\"9223372036854775807\"", "\"9223372036854775808\"",
        "\"18446744073709551615\"", "\"18446744073709551616\"", "\"1e400\"", "\"3.5e38\"", "\"1.00000000000000000000000000000000000000000000000000000000000000000000001\"",
        "\"NaN\"", "\"Infinity\"", "\"-Infinity\"", "\"infinity\"", "\"nan\"", "\"-infinity\"", "\"∞\"", "\"+Infinity\"",
        "true", "false", "null", "[]", "{}", "[1]", "{\"a\": 1}", "\"true\"",
        "\"abc\"", "\"AQ==\"", "\"AQ\"", "\"AQI=\"", "\"-_8=\"", "\"+/8=\"", "\"AR==\"", "\"A Q = =\"", "\" AQ==\\n\"", "\"AQ==AQ==\"", "\"=\"", "\"AQ\\u003d\\u003d\"",
        "\"COLOR_RED\"", "\"color_red\"", "\"ColorRed\"", "\"SMALL\"", "\"UNKNOWN\"", "2", "99", "\"2\"", "\"COLOR_\\u0052ED\"",
        "\"1970-01-01T00:00:00Z\"", "\"1970-01-01T00:00:00Z\\n\"", "\"1970-01-01T00:00:00Z\\n\\n\"", "\"2020-02-29T12:34:56.789+05:30\"",
        "\"2021-02-29T00:00:00Z\"", "\"2020-01-01T24:00:00Z\"", "\"2020-01-01T00:60:00Z\"", "\"2020-01-01T00:00:60Z\"", "\"2020-13-01T00:00:00Z\"",
        "\"0000-01-01T00:00:00Z\"", "\"0001-01-01T00:00:00Z\"", "\"0001-01-01T00:00:00+00:01\"", "\"0001-01-01T00:00:00-00:01\"",
        "\"9999-12-31T23:59:59.999999999Z\"", "\"9999-12-31T23:59:59-00:01\"", "\"2020-01-01T00:00:00+18:00\"", "\"2020-01-01T00:00:00+18:01\"",
        "\"2020-01-01T00:00:00-00:00\"", "\"2020-01-01T00:00:00+00:00\"", "\"2020-01-01T00:00:00+19:00\"", "\"2020-01-01T00:00:00+01:60\"",
        "\"2020-01-01t00:00:00Z\"", "\"2020-01-01T00:00:00z\"", "\"2020-01-01T00:00:00.Z\"", "\"2020-01-01T00:00:00.1234567890Z\"",
        "\"2020-01-01T00:00:00.123456789Z\"", "\"2020-01-01T00:00:00.1-08:00\"", "\"2020-01-01T00:00:00\"", "\" 2020-01-01T00:00:00Z\"",
        "\"2020-01-01T00:00:00+1:00\"", "\"2020-1-01T00:00:00Z\"", "\"2020-01-01T00:00:00.١Z\"", "\"2020-01-01T00:00:00\\u005a\"",
        "\"1.5s\"", "\"-1.5s\"", "\"1s\"", "\"01s\"", "\"1.0000000001s\"", "\"315576000001s\"", "\"s\"", "\"1.5\"",
        "\"a,b\"", "\"fooBar,baz\"", "\"foo_bar\"", "{\"a\": [1, \"x\", null, true, {\"b\": {}}]}", "[1, \"x\", null, [[]]]",
        "\"\\ud83d\\ude00\"", "\"\\ud83d\"", "\"\\ude00\\ud83d\"", "\"é\"", "\"\\u00e9\"", "\"a\\tb\"", "\"\\/\"",
    ];

    private static readonly string[] MapKeyCorpus =
    [
        "\"1\"", "\"-1\"", "\"0\"", "\"01\"", "\"+1\"", "\"1.0\"", "\"1e2\"", "\"1.5\"", "\" 1\"", "\"\"", "\"k\"", "\"true\"", "\"false\"", "\"True\"",
        "\"2147483648\"", "\"4294967296\"", "\"9223372036854775808\"", "\"18446744073709551615\"", "\"-0\"", "\"\\u0031\"", "\"\\ud800\"",
    ];

    private static IEnumerable<(MessageDescriptor, string)> StructuralCorpus()
    {
        var s = Scalars.Descriptor;
        string[] bodies =
        [
            "{}", " { } ", "\n{\"int32Value\": 1}\n", "{} {}", "{}x", "{},", "{} ", "{", "{\"int32Value\"", "{\"int32Value\":", "{\"int32Value\": 1",
            "{\"int32Value\": 1,}", "{,}", "[]", "null", "1", "\"x\"", "true", " ", "{/*c*/}", "{\"int32Value\": 1 // c\n}", "{'int32Value': 1}",
            "{\"int32Value\": 1, \"int32Value\": 2}", "{\"int32Value\": 1, \"int32_value\": 2}", "{\"int32Value\": 1, \"int32Value\": null}",
            "{\"tags\": [\"a\"], \"tags\": [\"b\"]}", "{\"tags\": [\"a\"], \"tags\": null}", "{\"tags\": [\"a\", null]}", "{\"tags\": null}", "{\"tags\": \"a\"}",
            "{\"labels\": {\"a\": \"1\", \"a\": \"2\"}}", "{\"labels\": {\"a\": null}}", "{\"labels\": null}", "{\"labels\": []}", "{\"labels\": {\"a\": 1}}",
            "{\"optionalInt32\": 1, \"optionalInt32\": 2}", "{\"optionalInt32\": null}", "{\"optionalInt32\": 0}", "{\"optional_int32\": 0, \"optionalInt32\": 0}",
            "{\"limit\": null}", "{\"limit\": 0}", "{\"limit\": {\"value\": 1}}", "{\"note\": \"\"}", "{\"note\": null}", "{\"created\": null}", "{\"created\": {}}",
            "{\"timeout\": null}", "{\"timeout\": \"1s\", \"timeout\": \"2s\"}",
            "{\"unknown\": 1}", "{\"unknown\": {\"a\": [1, {\"b\": null}]}}", "{\"unknown\": \"\\ud800\"}", "{\"unknown\": 1e400}", "{\"unknown\": [1e400]}",
            "{\"unknown\": {\"\\ud800\": 1}}", "{\"\\ud800\": 1}", "{\"unknown\": tru}", "{\"unknown\": [1,]}", "{\"int\\u0033\\u0032Value\": 5}", "{\"int\\u0033\\u0032_value\": 5}",
            "{\"unknown\": " + new string('[', 300) + new string(']', 300) + "}", "{\"Int32Value\": 1}", "{\"INT32_VALUE\": 1}", "{\"\": 1}",
            "{\"color\": \"NOPE\", \"int32Value\": 3}", "{\"colors\": [\"COLOR_RED\", \"NOPE\", \"COLOR_BLUE\"]}", "{\"colors\": [null]}", "{\"color\": null}",
            "{\"int32Value\": 01}", "{\"int32Value\": -}", "{\"int32Value\": 1.}", "{\"int32Value\": .5}", "{\"int32Value\": +1}", "{\"int32Value\": 1e}",
            "{\"int32Value\": NaN}", "{\"int32Value\": Infinity}", "{\"stringValue\": \"a\nb\"}", "{\"stringValue\": \"\\x\"}", "{\"stringValue\": \"\\u12\"}",
        ];
        foreach (var body in bodies)
        {
            yield return (s, body);
        }

        var c = Choice.Descriptor;
        foreach (var body in new[]
        {
            "{\"text\": \"a\", \"number\": \"1\"}", "{\"text\": \"a\", \"text\": \"b\"}", "{\"text\": null, \"number\": \"1\"}", "{\"text\": \"a\", \"after\": \"x\", \"message\": {}}",
            "{\"message\": {\"name\": \"x\", \"child\": {\"child\": {}}}}", "{\"message\": null}", "{\"color\": \"NOPE\"}", "{\"color\": \"NOPE\", \"text\": \"a\"}",
            "{\"time\": \"1970-01-01T00:00:00Z\"}", "{\"blob\": \"AQ==\", \"after\": \"\"}",
        })
        {
            yield return (c, body);
        }

        var w = WellKnown.Descriptor;
        foreach (var body in new[]
        {
            "{\"value\": null}", "{\"values\": [null, 1, \"a\", {}, []]}", "{\"struct\": {\"a\": null, \"b\": {\"c\": [1, {\"d\": null}]}}}", "{\"struct\": null}",
            "{\"struct\": []}", "{\"listValue\": [1, [2, [3]]]}", "{\"listValue\": {}}", "{\"empty\": {}}", "{\"empty\": {\"a\": 1}}", "{\"empty\": null}",
            "{\"fieldMask\": \"a.b,cD\"}", "{\"fieldMask\": \"a_b\"}", "{\"durations\": [\"1s\", null]}", "{\"timestamps\": [null]}", "{\"int32Wrappers\": [1, null]}",
            "{\"int32Wrappers\": [1, \"2\"]}", "{\"value\": " + new string('[', 10) + new string(']', 10) + "}",
            "{\"struct\": {\"a\": {\"b\": {\"c\": {\"d\": {}}}}}}", "{\"value\": {\"a\": {\"b\": {}}}}", "{\"timestamp\": \"1970-01-01T00:00:00Z\"}",
        })
        {
            yield return (w, body);
        }

        var t = Tree.Descriptor;
        foreach (var depth in new[] { 2, 3, 4, 99, 100, 101 })
        {
            yield return (t, Nest(depth, "{\"next\": ", "}"));
            yield return (t, Nest(depth, "{\"children\": [", "]}"));
        }

        var any = WithAny.Descriptor;
        foreach (var body in new[] { "{\"any\": {}}", "{\"any\": {\"@type\": \"type.googleapis.com/protohttp.tests.Nested\", \"name\": \"x\"}}", "{\"any\": {\"@type\": \"x\"}}", "{\"any\": null}" })
        {
            yield return (any, body);
        }

        var l = Legacy.Descriptor;
        foreach (var body in new[]
        {
            "{\"id\": \"a\", \"item\": [{\"name\": \"n\", \"quantity\": 2}], \"extra\": {\"note\": \"x\"}}", "{\"Item\": [{}]}", "{\"item\": [null]}",
            "{\"kindName\": \"a\", \"kindNumber\": 1}", "{\"sizes\": {\"a\": \"SMALL\", \"b\": \"NOPE\"}}", "{\"sizesList\": [\"SMALL\", 7]}",
            "{\"size\": 7}", "{\"count\": null}", "{\"child\": {\"child\": {\"id\": \"x\"}}}",
        })
        {
            yield return (l, body);
        }

        var m = Maps.Descriptor;
        foreach (var body in new[]
        {
            "{\"int64ToMessage\": {\"1\": {\"name\": \"a\"}, \"1\": {\"value\": 2}}}", "{\"uint32ToWrapper\": {\"1\": null}}", "{\"uint32ToWrapper\": {\"1\": \"5\"}}",
            "{\"stringToTree\": {\"a\": {\"next\": {\"next\": {}}}}}", "{\"boolToEnum\": {\"true\": \"NOPE\", \"false\": \"COLOR_RED\"}}",
        })
        {
            yield return (m, body);
        }

        foreach (var root in new MessageDescriptor[]
        {
            Google.Protobuf.WellKnownTypes.Timestamp.Descriptor, Google.Protobuf.WellKnownTypes.Int32Value.Descriptor,
            Google.Protobuf.WellKnownTypes.Value.Descriptor, Google.Protobuf.WellKnownTypes.Empty.Descriptor,
        })
        {
            foreach (var body in new[] { "{}", "1", "\"1970-01-01T00:00:00Z\"", "null", "[1]", "{\"value\": 1}", "1 2" })
            {
                yield return (root, body);
            }
        }
    }

    private static string Nest(int messages, string open, string close) =>
        string.Concat(Enumerable.Repeat(open, messages - 1)) + "{}" + string.Concat(Enumerable.Repeat(close, messages - 1));

    private static JsonCodec Codec(FormatOptions options) => new(options);

    private static JsonParser Parser(FormatOptions options) =>
        new(JsonParser.Settings.Default.WithIgnoreUnknownFields(options.IgnoreUnknownFields).WithRecursionLimit(options.MaxDepth - 1));

    private static void AssertFormattedReadsSame(IMessage message, bool protoNames)
    {
        var json = new JsonFormatter(JsonFormatter.Settings.Default.WithPreserveProtoFieldNames(protoNames)).Format(message);
        var expected = Parser(Strict).Parse(json, message.Descriptor);
        var bytes = Encoding.UTF8.GetBytes(json);
        Assert.Equal(expected, Codec(Strict).Read(new ReadOnlySequence<byte>(bytes), message.Descriptor));
        Assert.Equal(expected, Codec(Strict).Read(SegmentedSequence.Create(bytes, 7), message.Descriptor));
    }

    private static void Compare(string body, MessageDescriptor descriptor, FormatOptions options, List<string> failures)
    {
        IMessage? expected = null;
        Exception? refusal = null;
        try
        {
            var reference = JsonDepartures.ReferenceBody(body, descriptor)
                ?? throw new InvalidOperationException("A field is given twice, which the protobuf JSON spec refuses.");
            expected = Parser(options).Parse(reference, descriptor);
        }
        catch (Exception ex)
        {
            refusal = ex;
        }

        var bytes = Encoding.UTF8.GetBytes(body);
        foreach (var sequence in new[] { new ReadOnlySequence<byte>(bytes), SegmentedSequence.Create(bytes, 3) })
        {
            var where = $"{descriptor.Name} {body} (ignore unknown: {options.IgnoreUnknownFields}, depth {options.MaxDepth}, {(sequence.IsSingleSegment ? "one segment" : "segments")})";
            try
            {
                var actual = Codec(options).Read(sequence, descriptor);
                if (refusal is not null)
                {
                    failures.Add($"{where}: read as {actual}, JsonParser refused: {refusal.Message}");
                }
                else if (!actual.Equals(expected))
                {
                    failures.Add($"{where}: read as {actual}, JsonParser read {expected}");
                }
            }
            catch (InvalidMessageException ex)
            {
                if (refusal is null)
                {
                    failures.Add($"{where}: refused ({ex.Message}), JsonParser read {expected}");
                }
            }
            catch (Exception ex)
            {
                failures.Add($"{where}: threw {ex.GetType().Name}: {ex.Message}");
            }
        }
    }
}
