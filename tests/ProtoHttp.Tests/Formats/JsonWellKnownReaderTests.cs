using System.Buffers;
using System.Text;
using Google.Protobuf;
using Google.Protobuf.Reflection;
using Google.Protobuf.WellKnownTypes;
using ProtoHttp.Json;
using ProtoHttp.Tests.Protos;

namespace ProtoHttp.Tests.Formats;

/// <summary>
/// ProtoHttp's own readers of the well-known types with JSON forms of their own (Duration, FieldMask, Struct, Value,
/// ListValue, Empty, Any, and the wrappers and Timestamp at the root or in an Any), which replace Google.Protobuf's
/// JsonParser so that it stays out of a Native AOT binary: each body is accepted or refused as JsonParser, with the
/// same type registry, accepts or refuses it, into an equal message.
/// </summary>
public sealed class JsonWellKnownReaderTests
{
    private const string Url = "type.googleapis.com/";

    private static readonly TypeRegistry Types = AnyTypeRegistry.FromFiles([AllTypesReflection.Descriptor]);

    private static readonly string[] Durations =
    [
        "\"1s\"", "\"1.5s\"", "\"-1.5s\"", "\"0s\"", "\"-0s\"", "\"0.000000001s\"", "\"1.0000000001s\"", "\"01s\"", "\"1.s\"", "\".5s\"",
        "\"1\"", "\"1S\"", "\" 1s\"", "\"1s \"", "\"1s\\n\"", "\"315576000000s\"", "\"315576000001s\"", "\"-315576000000.999999999s\"",
        "\"-315576000001s\"", "\"1000000000000s\"", "\"+1s\"", "\"1.5\"", "\"--1s\"", "\"1e2s\"", "\"\"", "\"\\u0031s\"", "1", "\"-0.5s\"",
        "\"1.000s\"", "\"١s\"", "true", "{}", "[]",
    ];

    private static readonly string[] FieldMasks =
    [
        "\"\"", "\"a\"", "\"a.b,cD\"", "\"fooBar.bazQux\"", "\"GBike\"", "\"GoogleLAB\"", "\"a,,b\"", "\",\"", "\"a_b\"", "\"a b\"", "\"a\\u005fb\"",
        "\"aBC\"", "\"ABc\"", "\"a.B.c\"", "\"é\"", "1", "[\"a\"]", "null",
    ];

    private static readonly string[] Values =
    [
        "null", "1", "-1.5e3", "1e400", "\"s\"", "\"\\ud800\"", "true", "false", "{}", "[]", "{\"a\": {\"b\": [1, null, {\"c\": \"d\"}]}}",
        "[[[]], {}, null]", "{\"a\": 1, \"a\": 2}", "{\"\": null}",
    ];

    private static readonly string[] Anys =
    [
        "{}", "{\"name\": \"x\"}", "[]", "\"x\"", "1",
        "{\"@type\": \"" + Url + "protohttp.tests.Nested\", \"name\": \"x\", \"value\": 2}",
        "{\"name\": \"x\", \"@type\": \"" + Url + "protohttp.tests.Nested\", \"child\": {\"name\": \"c\"}}",
        "{\"@type\": \"example.com/a/b/protohttp.tests.Nested\", \"name\": \"x\"}",
        "{\"@type\": \"" + Url + "protohttp.tests.Nested\", \"unknown\": 1}",
        "{\"@type\": \"" + Url + "protohttp.tests.Nested\", \"child\": {\"@type\": \"x\"}}",
        "{\"@type\": \"" + Url + "protohttp.tests.Nested\", \"@type\": \"" + Url + "protohttp.tests.Nested\"}",
        "{\"@type\": \"" + Url + "protohttp.tests.Nested\", \"name\": 1}",
        "{\"@type\": 1}", "{\"@type\": null}", "{\"@type\": \"nope\"}", "{\"@type\": \"a/\"}", "{\"@type\": \"" + Url + "unknown.Type\"}",
        "{\"@type\": \"" + Url + "google.protobuf.Duration\", \"value\": \"1.5s\"}",
        "{\"value\": \"-2s\", \"@type\": \"" + Url + "google.protobuf.Duration\"}",
        "{\"@type\": \"" + Url + "google.protobuf.Duration\"}",
        "{\"@type\": \"" + Url + "google.protobuf.Duration\", \"value\": \"1s\", \"x\": 1}",
        "{\"@type\": \"" + Url + "google.protobuf.Duration\", \"value\": \"x\"}",
        "{\"@type\": \"" + Url + "google.protobuf.Duration\", \"value\": null}",
        "{\"@type\": \"" + Url + "google.protobuf.Duration\", \"v\": \"1s\"}",
        "{\"@type\": \"" + Url + "google.protobuf.Empty\", \"value\": {}}",
        "{\"@type\": \"" + Url + "google.protobuf.Empty\", \"value\": {\"a\": 1}}",
        "{\"@type\": \"" + Url + "google.protobuf.Int32Value\", \"value\": 5}",
        "{\"@type\": \"" + Url + "google.protobuf.Int32Value\", \"value\": null}",
        "{\"@type\": \"" + Url + "google.protobuf.StringValue\", \"value\": \"s\"}",
        "{\"@type\": \"" + Url + "google.protobuf.Value\", \"value\": null}",
        "{\"@type\": \"" + Url + "google.protobuf.Value\", \"value\": [1, {\"a\": null}]}",
        "{\"@type\": \"" + Url + "google.protobuf.Struct\", \"value\": {\"a\": 1}}",
        "{\"@type\": \"" + Url + "google.protobuf.Struct\", \"value\": []}",
        "{\"@type\": \"" + Url + "google.protobuf.ListValue\", \"value\": [1, \"a\"]}",
        "{\"@type\": \"" + Url + "google.protobuf.Timestamp\", \"value\": \"1970-01-01T00:00:01.5Z\"}",
        "{\"@type\": \"" + Url + "google.protobuf.FieldMask\", \"value\": \"a.bC,d\"}",
        "{\"@type\": \"" + Url + "google.protobuf.Any\", \"value\": {\"@type\": \"" + Url + "protohttp.tests.Nested\", \"name\": \"y\"}}",
        "{\"@type\": \"" + Url + "google.protobuf.Any\", \"value\": {\"@type\": \"" + Url + "google.protobuf.Duration\", \"value\": \"3s\"}}",
        "{\"@type\": \"" + Url + "google.protobuf.Any\", \"value\": {}}",
    ];

    public static TheoryData<string> Cases()
    {
        var cases = new TheoryData<string>();
        foreach (var value in Durations)
        {
            cases.Add($"{{\"duration\": {value}}}");
            cases.Add($"{{\"durations\": [{value}]}}");
        }

        foreach (var value in FieldMasks)
        {
            cases.Add($"{{\"fieldMask\": {value}}}");
        }

        foreach (var value in Values)
        {
            cases.Add($"{{\"value\": {value}}}");
            cases.Add($"{{\"values\": [{value}]}}");
            cases.Add($"{{\"struct\": {{\"k\": {value}}}}}");
            cases.Add($"{{\"listValue\": [{value}]}}");
            cases.Add($"{{\"struct\": {value}}}");
            cases.Add($"{{\"listValue\": {value}}}");
        }

        foreach (var value in new[] { "{}", "{\"a\": 1}", "null", "[]", "1" })
        {
            cases.Add($"{{\"empty\": {value}}}");
        }

        return cases;
    }

    [Theory]
    [MemberData(nameof(Cases))]
    public void AFieldOfAWellKnownTypeIsReadAsJsonParserReadsIt(string body)
    {
        Assert.Empty(Differences(body, WellKnown.Descriptor));
    }

    public static TheoryData<string> AnyCases() => [.. Anys];

    [Theory]
    [MemberData(nameof(AnyCases))]
    public void AnAnyIsReadAsJsonParserReadsItWithTheSameRegistry(string any)
    {
        Assert.Empty(Differences($"{{\"any\": {any}}}", WithAny.Descriptor));
        Assert.Empty(Differences(any, Any.Descriptor));
    }

    [Theory]
    [InlineData("\"1.5s\"")]
    [InlineData("\"x\"")]
    [InlineData("null")]
    [InlineData("\"a.bC\"")]
    [InlineData("{\"a\": [1, null]}")]
    [InlineData("[1, \"a\"]")]
    [InlineData("{}")]
    [InlineData("5")]
    [InlineData("{\"@type\": \"" + Url + "google.protobuf.Duration\", \"value\": \"1s\"}")]
    public void AWellKnownTypeAtTheRootIsReadAsJsonParserReadsIt(string body)
    {
        foreach (var root in new[] { Duration.Descriptor, FieldMask.Descriptor, Struct.Descriptor, Value.Descriptor, ListValue.Descriptor, Empty.Descriptor, Int32Value.Descriptor, Any.Descriptor })
        {
            Assert.Empty(Differences(body, root));
        }
    }

    [Fact]
    public void NestingBeyondTheLimitInsideAStructIsRefused()
    {
        var options = new FormatOptions { MaxDepth = 5, AnyTypes = Types };
        var codec = new JsonCodec(options);
        var deep = string.Concat(Enumerable.Repeat("{\"a\": ", 5)) + "1" + new string('}', 5);

        // WellKnown 1, Struct 2, Value 3, Struct 4, Value 5, Struct 6.
        var error = Assert.Throws<InvalidMessageException>(() => codec.Read(Body($"{{\"struct\": {deep}}}"), WellKnown.Descriptor));
        Assert.Contains("nesting", error.Message, StringComparison.Ordinal);
        Assert.NotNull(codec.Read(Body("{\"struct\": {\"a\": {\"b\": 1}}}"), WellKnown.Descriptor));
    }

    // Every mismatch between the codec and JsonParser (same registry, unknown names refused and ignored).
    private static List<string> Differences(string body, MessageDescriptor descriptor)
    {
        var differences = new List<string>();
        foreach (var ignoreUnknown in new[] { false, true })
        {
            IMessage? expected = null;
            Exception? refusal = null;
            try
            {
                var settings = JsonParser.Settings.Default.WithTypeRegistry(Types).WithIgnoreUnknownFields(ignoreUnknown).WithRecursionLimit(99);
                expected = new JsonParser(settings).Parse(body, descriptor);
            }
            catch (Exception ex)
            {
                refusal = ex;
            }

            var codec = new JsonCodec(new FormatOptions { AnyTypes = Types, IgnoreUnknownFields = ignoreUnknown });
            var where = $"{descriptor.Name} {body} (ignore unknown: {ignoreUnknown})";
            try
            {
                var actual = codec.Read(Body(body), descriptor);
                if (refusal is not null)
                {
                    differences.Add($"{where}: read as {actual}, JsonParser refused: {refusal.Message}");
                }
                else if (!actual.Equals(expected))
                {
                    differences.Add($"{where}: read as {actual}, JsonParser read {expected}");
                }
            }
            catch (InvalidMessageException ex)
            {
                if (refusal is null)
                {
                    differences.Add($"{where}: refused ({ex.Message}), JsonParser read {expected}");
                }
            }
            catch (Exception ex)
            {
                differences.Add($"{where}: threw {ex.GetType().Name}: {ex.Message}");
            }
        }

        return differences;
    }

    private static ReadOnlySequence<byte> Body(string json) => new(Encoding.UTF8.GetBytes(json));
}
