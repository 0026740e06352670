using Google.Protobuf;
using Google.Protobuf.Reflection;
using Google.Protobuf.WellKnownTypes;
using ProtoHttp.Tests.Protos;
using ProtobufTestMessages.Proto2;

namespace ProtoHttp.Tests.Formats;

/// <summary>
/// <c>google.protobuf.Any</c> in JSON with a service's type registry: written byte for byte as JsonFormatter writes
/// it with the same registry, read into the messages JsonParser reads; unknown types and runaway nesting refused.
/// </summary>
public sealed class JsonAnyTests
{
    private static readonly TypeRegistry Types = AnyTypeRegistry.FromFiles([AllTypesReflection.Descriptor]);

    private static readonly MessageCodecs Codecs = new(new FormatOptions { AnyTypes = Types });

    public static TheoryData<string, IMessage> Packed => new()
    {
        { "message", new Nested { Name = "n", Value = 2, Child = new Nested { Name = "c" } } },
        { "empty message", new Nested() },
        { "Timestamp", new Timestamp { Seconds = 1_700_000_000, Nanos = 5_000_000 } },
        { "Duration", new Duration { Seconds = -90, Nanos = -500_000_000 } },
        { "Struct", Struct.Parser.ParseJson("{\"a\": [1, \"two\", null, {\"b\": true}]}") },
        { "Value", Value.ForNumber(1.5) },
        { "Int32Value", new Int32Value { Value = 7 } },
        { "StringValue", new StringValue { Value = "s" } },
        { "FieldMask", FieldMask.FromString("a.b,c") },
        { "Empty", new Empty() },
        { "Any of a message", Any.Pack(new Nested { Name = "inner" }) },
        { "Any of Any of a Timestamp", Any.Pack(Any.Pack(new Timestamp { Seconds = 5 })) },
        { "message holding an Any", new WithAny { Any = Any.Pack(new Nested { Name = "deep" }) } },
        { "scalars", new Scalars { DoubleValue = 1.5, Int64Value = -3, Fixed64Value = 4 } },
    };

    [Theory]
    [MemberData(nameof(Packed))]
    public void AnAnyIsWrittenAsJsonFormatterWritesItAndReadBackEqual(string name, IMessage packed)
    {
        var message = new WithAny { Any = Any.Pack(packed) };
        var json = CodecHelpers.WriteText(CodecNames.Json, message, Codecs);

        Assert.Equal(Formatter(protoNames: false).Format(message), json);
        Assert.Equal(message, CodecHelpers.Read(CodecNames.Json, json, WithAny.Descriptor, Codecs));
        Assert.Equal(JsonParser(json), CodecHelpers.Read(CodecNames.Json, json, WithAny.Descriptor, Codecs));
        Assert.NotNull(name);
    }

    [Fact]
    public void AnAnyAtTheRootAndWithProtoNamesIsWrittenAsJsonFormatterWritesIt()
    {
        var root = Any.Pack(new Nested { Name = "root", Child = new Nested { Value = 1 } });
        var protoNames = new MessageCodecs(new FormatOptions { AnyTypes = Types, PreserveProtoFieldNames = true });

        Assert.Equal(Formatter(protoNames: false).Format(root), CodecHelpers.WriteText(CodecNames.Json, root, Codecs));
        var scalars = new WithAny { Any = Any.Pack(new Scalars { Int32Value = 1, StringValue = "s" }) };
        Assert.Equal(Formatter(protoNames: true).Format(scalars), CodecHelpers.WriteText(CodecNames.Json, scalars, protoNames));
    }

    [Theory]
    [InlineData("{\"any\": {\"name\": \"x\", \"@type\": \"type.googleapis.com/protohttp.tests.Nested\"}}")]
    [InlineData("{\"any\": {\"@type\": \"type.googleapis.com/google.protobuf.Any\", \"value\": {\"@type\": \"type.googleapis.com/google.protobuf.Int32Value\", \"value\": 3}}}")]
    [InlineData("{\"any\": {\"@type\": \"example.com/a/b/google.protobuf.Duration\", \"value\": \"1.5s\"}}")]
    [InlineData("{\"any\": {\"@type\": \"type.googleapis.com/google.protobuf.Value\", \"value\": {\"x\": [1]}}}")]
    public void AJsonAnyIsReadAsJsonParserReadsIt(string json) =>
        Assert.Equal(JsonParser(json), CodecHelpers.Read(CodecNames.Json, json, WithAny.Descriptor, Codecs));

    [Fact]
    public void AnAnyOfATypeTheRegistryDoesNotKnowIsRefusedNamingTheType()
    {
        var read = CodecHelpers.ReadFails(CodecNames.Json, "{\"any\": {\"@type\": \"type.googleapis.com/no.Such\"}}", WithAny.Descriptor, Codecs);
        var write = Assert.Throws<UnwritableMessageException>(() => CodecHelpers.Write(CodecNames.Json, new WithAny { Any = new Any { TypeUrl = "type.googleapis.com/no.Such" } }, Codecs));

        Assert.Contains("no.Such", read.Message, StringComparison.Ordinal);
        Assert.Contains("no.Such", write.Message, StringComparison.Ordinal);
    }

    [Fact]
    public void AnAnyNamingNoTypeIsWrittenAsTheEmptyObjectAsJsonFormatterWritesIt()
    {
        var message = new WithAny { Any = new Any { Value = ByteString.CopyFrom(0xFB, 0xFF) } };

        Assert.Equal(Formatter(protoNames: false).Format(message), CodecHelpers.WriteText(CodecNames.Json, message, Codecs));
        Assert.Equal("{ \"any\": { } }", CodecHelpers.WriteText(CodecNames.Json, message));
    }

    [Fact]
    public void AnAnyWhosePayloadIsNotItsTypeCannotBeWritten()
    {
        var message = new WithAny { Any = new Any { TypeUrl = "type.googleapis.com/protohttp.tests.Nested", Value = ByteString.CopyFrom(0xFF, 0xFF) } };

        Assert.Throws<UnwritableMessageException>(() => CodecHelpers.Write(CodecNames.Json, message, Codecs));
    }

    [Theory]
    [InlineData(99, true)]
    [InlineData(100, false)]
    [InlineData(3_000, false)]
    public void AnysNestInJsonOutputUpToTheDepthLimit(int anys, bool writable)
    {
        // WithAny is level 1; each Any one more.
        var any = Any.Pack(new Nested());
        for (var i = 1; i < anys; i++)
        {
            any = new Any { TypeUrl = "type.googleapis.com/google.protobuf.Any", Value = any.ToByteString() };
        }

        var message = new WithAny { Any = any };
        if (writable)
        {
            Assert.Equal(Formatter(protoNames: false).Format(message), CodecHelpers.WriteText(CodecNames.Json, message, Codecs));
        }
        else
        {
            var ex = Assert.Throws<UnwritableMessageException>(() => CodecHelpers.Write(CodecNames.Json, message, Codecs));
            Assert.Contains("deeper than 100", ex.Message, StringComparison.Ordinal);
        }

        // A failed answer leaves the next one on the thread unaffected.
        Assert.Equal("{ \"name\": \"after\" }", CodecHelpers.WriteText(CodecNames.Json, new Nested { Name = "after" }, Codecs));
    }

    [Fact]
    public void AProto2ExtensionRoundTripsUnderItsFullName()
    {
        var codecs = new MessageCodecs(new FormatOptions { Extensions = ExtensionCatalog.FromFiles([TestMessagesProto2Reflection.Descriptor]) });
        var message = new TestAllTypesProto2 { OptionalInt32 = 1 };
        message.SetExtension(TestMessagesProto2Extensions.ExtensionInt32, 5);

        var json = CodecHelpers.WriteText(CodecNames.Json, message, codecs);

        Assert.Equal("{ \"optionalInt32\": 1, \"[protobuf_test_messages.proto2.extension_int32]\": 5 }", json);
        Assert.Equal(message, CodecHelpers.Read(CodecNames.Json, json, TestAllTypesProto2.Descriptor, codecs));
    }

    private static JsonFormatter Formatter(bool protoNames) =>
        new(JsonFormatter.Settings.Default.WithPreserveProtoFieldNames(protoNames).WithTypeRegistry(Types));

    private static IMessage JsonParser(string json) =>
        new JsonParser(Google.Protobuf.JsonParser.Settings.Default.WithTypeRegistry(Types)).Parse(json, WithAny.Descriptor);
}
