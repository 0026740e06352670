using ProtoHttp.Tests.Protos;

namespace ProtoHttp.Tests.Formats;

/// <summary>
/// Integer leaves in a body without character references are parsed by the reader from its UTF-8 bytes, and the body
/// is read again the exact way wherever that is unsure (docs/protocol.md section 4). These are the texts at the seams
/// of the two ways: whatever way reads them, the answers are the protocol's.
/// </summary>
public class XmlIntegerFastPathTests
{
    [Theory]
    [InlineData(" -9223372036854775808\t", long.MinValue)]
    [InlineData("+9223372036854775807", long.MaxValue)]
    [InlineData("\r\n007\r\n", 7)]
    [InlineData("-0", 0)]
    [InlineData("1<!-- between -->2", 12)]
    [InlineData("<![CDATA[34]]>", 34)]
    [InlineData("5<![CDATA[6]]>", 56)]
    public void Int64Accepts(string text, long expected) => Assert.Equal(expected, Read($"<int64_value>{text}</int64_value>").Int64Value);

    [Theory]
    [InlineData("9223372036854775808")]
    [InlineData("-9223372036854775809")]
    [InlineData("1 2")]
    [InlineData("1e3")]
    [InlineData("--1")]
    [InlineData("- 1")]
    [InlineData("٣")]
    [InlineData("1,000")]
    [InlineData(" ")]
    [InlineData("")]
    public void Int64Refuses(string text) => AssertRefused("int64_value", text, $"<int64_value>: '{text}' is not a valid int64.");

    [Fact]
    public void AnEmptyIntegerElementIsRefusedAsEmptyText() =>
        Assert.Equal(
            "<int32_value>: '' is not a valid int32.",
            CodecHelpers.ReadFails(CodecNames.Xml, "<root><int32_value/></root>", Scalars.Descriptor).Message);

    [Fact]
    public void AnElementInsideAnIntegerIsNamed() =>
        Assert.Equal(
            "<int32_value> holds a value, so it cannot contain the element <b>.",
            CodecHelpers.ReadFails(CodecNames.Xml, "<root><int32_value>1<b/></int32_value></root>", Scalars.Descriptor).Message);

    [Fact]
    public void AnErrorAfterIntegersReadTheFastWayIsStillTheFirstOneReported() =>
        Assert.Equal(
            "<int64_value>: 'x' is not a valid int64.",
            CodecHelpers.ReadFails(CodecNames.Xml, "<root><int32_value>1</int32_value><int64_value>x</int64_value><uint32_value>y</uint32_value></root>", Scalars.Descriptor).Message);

    [Fact]
    public void RepeatedIntegersKeepEveryValueInOrder()
    {
        var read = CodecHelpers.Read<Repeated>(CodecNames.Xml,
            "<root><int32s>1</int32s><int32s> -2 </int32s><int32s>3<!-- c -->0</int32s><int64s>4</int64s><int64s>+5</int64s></root>");
        Assert.Equal([1, -2, 30], read.Int32S);
        Assert.Equal([4L, 5L], read.Int64S);
    }

    [Fact]
    public void IntegersAroundACharacterReferenceAreReadTheExactWay() =>
        Assert.Equal(
            (41, "a\u00E9"),
            Read("<int32_value> 41 </int32_value><string_value>a&#233;</string_value>") is var read ? (read.Int32Value, read.StringValue) : default);

    private static Scalars Read(string elements) => CodecHelpers.Read<Scalars>(CodecNames.Xml, $"<root>{elements}</root>");

    private static void AssertRefused(string element, string text, string expected) =>
        Assert.Equal(expected, CodecHelpers.ReadFails(CodecNames.Xml, $"<root><{element}>{text}</{element}></root>", Scalars.Descriptor).Message);
}
