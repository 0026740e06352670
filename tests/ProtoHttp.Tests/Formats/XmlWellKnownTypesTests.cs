using Google.Protobuf;
using Google.Protobuf.WellKnownTypes;
using ProtoHttp.Tests.Protos;

namespace ProtoHttp.Tests.Formats;

/// <summary>Each well-known type in XML as docs/protocol.md sections 4 and 9 describe it, written and read.</summary>
public class XmlWellKnownTypesTests
{
    [Fact]
    public void WrappersAreTheirScalarsText()
    {
        var message = new WellKnown
        {
            DoubleWrapper = double.NegativeInfinity,
            FloatWrapper = 1.5f,
            Int64Wrapper = -9_007_199_254_740_993,
            Uint64Wrapper = ulong.MaxValue,
            BoolWrapper = false,
            StringWrapper = " a&b ",
            BytesWrapper = ByteString.CopyFrom(0xFB, 0xFF),
        };
        const string Xml = "<root><double_wrapper>-INF</double_wrapper><float_wrapper>1.5</float_wrapper>"
            + "<int64_wrapper>-9007199254740993</int64_wrapper><uint64_wrapper>18446744073709551615</uint64_wrapper>"
            + "<bool_wrapper>false</bool_wrapper><string_wrapper> a&amp;b </string_wrapper><bytes_wrapper>+/8=</bytes_wrapper></root>";
        Assert.Equal(Xml, CodecHelpers.WriteText(CodecNames.Xml, message));
        Assert.Equal(message, CodecHelpers.Read<WellKnown>(CodecNames.Xml, Xml));

        // Read with the scalar rules: bool 1/0 in any case, bytes URL-safe and unpadded, whitespace around numbers.
        var read = CodecHelpers.Read<WellKnown>(CodecNames.Xml, "<r><bool_wrapper> TRUE </bool_wrapper><bytes_wrapper>-_8</bytes_wrapper><int32_wrappers> 7 </int32_wrappers></r>");
        Assert.True(read.BoolWrapper);
        Assert.Equal(ByteString.CopyFrom(0xFB, 0xFF), read.BytesWrapper);
        Assert.Equal([7], read.Int32Wrappers);
    }

    [Fact]
    public void StructValueAndListValueAreTheirJsonText()
    {
        var message = new WellKnown
        {
            Struct = new Struct { Fields = { ["a"] = Value.ForList(Value.ForNumber(1), Value.ForNull()) } },
            Value = Value.ForString("x"),
            ListValue = new ListValue { Values = { Value.ForBool(true) } },
        };
        const string Xml = "<root><struct>{ \"a\": [ 1, null ] }</struct><value>\"x\"</value><list_value>[ true ]</list_value></root>";
        Assert.Equal(Xml, CodecHelpers.WriteText(CodecNames.Xml, message));
        Assert.Equal(message, CodecHelpers.Read<WellKnown>(CodecNames.Xml, Xml));
    }

    [Fact]
    public void EmptyIsAnEmptyJsonObjectAndEmptyTextIsAccepted()
    {
        Assert.Equal("<root><empty>{ }</empty></root>", CodecHelpers.WriteText(CodecNames.Xml, new WellKnown { Empty = new Empty() }));
        foreach (var element in new[] { "<empty>{ }</empty>", "<empty>{}</empty>", "<empty></empty>", "<empty/>", "<empty> </empty>" })
        {
            Assert.NotNull(CodecHelpers.Read<WellKnown>(CodecNames.Xml, $"<r>{element}</r>").Empty);
        }
    }

    [Fact]
    public void FieldMaskIsTheCamelCaseListAndDurationItsJsonText()
    {
        var message = new WellKnown { FieldMask = new FieldMask { Paths = { "a_b.c", "d" } }, Duration = new Duration { Seconds = -1, Nanos = -500_000_000 } };
        const string Xml = "<root><duration>-1.500s</duration><field_mask>aB.c,d</field_mask></root>";
        Assert.Equal(Xml, CodecHelpers.WriteText(CodecNames.Xml, message));
        Assert.Equal(message, CodecHelpers.Read<WellKnown>(CodecNames.Xml, Xml));
    }

    [Fact]
    public void AnyIsItsTwoFieldsAsNestedElements()
    {
        var message = new WithAny { Any = new Any { TypeUrl = "type.googleapis.com/unknown.Type", Value = ByteString.CopyFrom(1, 2, 3) } };
        const string Xml = "<root><any><type_url>type.googleapis.com/unknown.Type</type_url><value>AQID</value></any></root>";
        Assert.Equal(Xml, CodecHelpers.WriteText(CodecNames.Xml, message));
        Assert.Equal(message, CodecHelpers.Read<WithAny>(CodecNames.Xml, Xml));
    }
}
