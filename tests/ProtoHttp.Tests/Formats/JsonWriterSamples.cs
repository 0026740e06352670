using System.Collections;
using System.Text;
using Google.Protobuf;
using Google.Protobuf.Reflection;
using Google.Protobuf.WellKnownTypes;

namespace ProtoHttp.Tests.Formats;

/// <summary>Seeded random messages over the all-types descriptors, with values chosen to stress JSON formatting.</summary>
internal static class JsonWriterSamples
{
    private static readonly double[] Doubles = [0, -0.0, double.NaN, double.PositiveInfinity, double.NegativeInfinity, double.MaxValue, double.MinValue, double.Epsilon, 0.1, 1e21, 1e-7, 123456.789, -1.5e-300];
    private static readonly string Pool = "aZ09 \"\\/<>&'=\b\f\n\r\t\u0000\u001f\u007f\u0080\u009f\u00a0\u00adüé日本\u0600\u06dd\u070f\u17b4\u200b\u2028\u2029\u202e\u2060\u206a\ufeff\ufff9\ufffb\uffff";

    public static IMessage Random(MessageDescriptor descriptor, Random random, int depth = 0)
    {
        var message = (IMessage)Activator.CreateInstance(descriptor.ClrType)!;
        foreach (var field in descriptor.Fields.InDeclarationOrder())
        {
            if (random.Next(3) == 0)
            {
                continue;
            }

            if (field.IsMap)
            {
                var map = (IDictionary)field.Accessor.GetValue(message);
                for (var i = random.Next(4); i > 0; i--)
                {
                    var value = Value(field.MessageType.FindFieldByNumber(2), random, depth);
                    if (value is not null)
                    {
                        map[Value(field.MessageType.FindFieldByNumber(1), random, depth)!] = value;
                    }
                }
            }
            else if (field.IsRepeated)
            {
                var list = (IList)field.Accessor.GetValue(message);
                for (var i = random.Next(4); i > 0; i--)
                {
                    if (Value(field, random, depth) is { } value)
                    {
                        list.Add(value);
                    }
                }
            }
            else if (Value(field, random, depth) is { } value)
            {
                field.Accessor.SetValue(message, value);
            }
        }

        return message;
    }

    private static object? Value(FieldDescriptor field, Random random, int depth) => field.FieldType switch
    {
        FieldType.Double => Doubles[random.Next(Doubles.Length)] * (random.Next(2) == 0 ? 1 : random.NextDouble()),
        FieldType.Float => (float)(Doubles[random.Next(Doubles.Length)] * random.NextDouble()),
        FieldType.Int32 or FieldType.SInt32 or FieldType.SFixed32 => random.Next(4) == 0 ? int.MinValue : random.Next(int.MinValue, int.MaxValue),
        FieldType.UInt32 or FieldType.Fixed32 => (uint)random.NextInt64(0, uint.MaxValue + 1L),
        FieldType.Int64 or FieldType.SInt64 or FieldType.SFixed64 => random.NextInt64(long.MinValue, long.MaxValue),
        FieldType.UInt64 or FieldType.Fixed64 => (ulong)random.NextInt64() * 2,
        FieldType.Bool => random.Next(2) == 0,
        FieldType.String => Text(random),
        FieldType.Bytes => ByteString.CopyFrom(Enumerable.Range(0, random.Next(8)).Select(_ => (byte)random.Next(256)).ToArray()),
        FieldType.Enum => System.Enum.ToObject(field.EnumType.ClrType, random.Next(5) == 0 ? random.Next(-3, 100) : random.Next(4)),
        _ => MessageValue(field, random, depth),
    };

    private static object? MessageValue(FieldDescriptor field, Random random, int depth)
    {
        var type = field.MessageType;
        if (type.FullName == Timestamp.Descriptor.FullName)
        {
            var nanos = new[] { 0, 1, 1_000, 1_000_000, 123_456_789, 999_999_999 }[random.Next(6)];
            return new Timestamp { Seconds = random.NextInt64(-62_135_596_800, 253_402_300_800), Nanos = nanos };
        }

        if (type.FullName == Duration.Descriptor.FullName)
        {
            return new Duration { Seconds = random.Next(-100_000, 100_000), Nanos = 0 };
        }

        if (type.File.Name == "google/protobuf/wrappers.proto")
        {
            return Value(type.FindFieldByNumber(1), random, depth);
        }

        if (type.File.Package == "google.protobuf" || depth > 3)
        {
            return null;
        }

        return Random(type, random, depth + 1);
    }

    private static string Text(Random random)
    {
        var text = new StringBuilder();
        for (var i = random.Next(12); i > 0; i--)
        {
            if (random.Next(8) == 0)
            {
                text.Append("😀");
            }
            else
            {
                text.Append(Pool[random.Next(Pool.Length)]);
            }
        }

        return text.ToString();
    }
}
