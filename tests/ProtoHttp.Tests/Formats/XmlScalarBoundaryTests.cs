using Google.Protobuf.WellKnownTypes;
using ProtoHttp.Tests.Protos;

namespace ProtoHttp.Tests.Formats;

/// <summary>
/// The XML scalar rules (docs/protocol.md sections 4 and 9) where XmlConvert and the reader's typed
/// <c>ReadElementContentAs*</c> methods draw the line elsewhere: signs, exponents, case, infinities, -0, ranges,
/// offsets and fraction digits. Whatever reads leaves, these are ProtoHttp's answers.
/// </summary>
public class XmlScalarBoundaryTests
{
    [Theory]
    [InlineData(" 42\n", 42)]
    [InlineData("+1", 1)]
    [InlineData("-0", 0)]
    [InlineData("007", 7)]
    [InlineData("-2147483648", int.MinValue)]
    public void Int32Accepts(string text, int expected) => Assert.Equal(expected, Read($"<int32_value>{text}</int32_value>").Int32Value);

    [Theory]
    [InlineData("1e5")]
    [InlineData("2147483648")]
    [InlineData("-2147483649")]
    [InlineData("1.0")]
    [InlineData("0x10")]
    [InlineData("INF")]
    [InlineData("+-1")]
    public void Int32Refuses(string text) => AssertRefused("int32_value", text, $"<int32_value>: '{text}' is not a valid int32.");

    [Theory]
    [InlineData("18446744073709551616", "uint64")]
    [InlineData("-1", "uint64")]
    public void UInt64Refuses(string text, string type) => AssertRefused("uint64_value", text, $"<uint64_value>: '{text}' is not a valid {type}.");

    [Fact]
    public void UInt64AcceptsItsWholeRange() =>
        Assert.Equal(ulong.MaxValue, Read("<uint64_value>+18446744073709551615</uint64_value>").Uint64Value);

    [Theory]
    [InlineData("true", true)]
    [InlineData("True", true)]
    [InlineData(" FALSE ", false)]
    [InlineData("1", true)]
    [InlineData("0", false)]
    public void BoolAccepts(string text, bool expected) => Assert.Equal(expected, Read($"<bool_value>{text}</bool_value><int32_value>1</int32_value>").BoolValue);

    [Theory]
    [InlineData("yes")]
    [InlineData("2")]
    [InlineData("01")]
    public void BoolRefuses(string text) => AssertRefused("bool_value", text, $"<bool_value>: '{text}' is not a valid bool.");

    [Theory]
    [InlineData("INF", float.PositiveInfinity)]
    [InlineData("-INF", float.NegativeInfinity)]
    [InlineData("Infinity", float.PositiveInfinity)]
    [InlineData("1e5", 100_000f)]
    [InlineData("5.", 5f)]
    [InlineData(".5", 0.5f)]
    [InlineData("3.4028235E+38", float.MaxValue)]
    public void FloatAccepts(string text, float expected) => Assert.Equal(expected, Read($"<float_value>{text}</float_value>").FloatValue);

    [Fact]
    public void FloatKeepsNaNAndTheSignOfZero()
    {
        Assert.True(float.IsNaN(Read("<float_value>NaN</float_value>").FloatValue));
        var negativeZero = Read("<float_value>-0</float_value><int32_value>1</int32_value>").FloatValue;
        Assert.True(negativeZero == 0 && float.IsNegative(negativeZero));
    }

    [Theory]
    [InlineData(".")]
    [InlineData("-.")]
    [InlineData("1e39")]
    [InlineData("inf")]
    [InlineData("+INF")]
    public void FloatRefuses(string text) => AssertRefused("float_value", text, $"<float_value>: '{text}' is not a valid float.");

    [Fact]
    public void DoubleRefusesAFiniteValueBeyondItsRange() =>
        AssertRefused("double_value", "1e309", "<double_value>: '1e309' is not a valid double.");

    [Theory]
    [InlineData("1972-01-01T10:00:20.021Z", 63_108_020, 21_000_000)]
    [InlineData("1972-01-01t10:00:20z", 63_108_020, 0)]
    [InlineData("1972-01-01T12:00:20+02:00", 63_108_020, 0)]
    [InlineData("1972-01-01T10:00:20.123456789Z", 63_108_020, 123_456_789)]
    [InlineData("1972-01-01T10:00:20.1Z", 63_108_020, 100_000_000)]
    public void TimestampAccepts(string text, long seconds, int nanos) =>
        Assert.Equal(new Timestamp { Seconds = seconds, Nanos = nanos }, Read($"<created>{text}</created>").Created);

    [Theory]
    [InlineData("1972-01-01T10:00:20")]
    [InlineData("1972-01-01T10:00:20.1234567891Z")]
    [InlineData("1972-01-01T24:00:00Z")]
    [InlineData("1972-01-01 10:00:20Z")]
    public void TimestampRefuses(string text) =>
        AssertRefused("created", text, $"<created>: '{text}' is not an RFC 3339 timestamp such as 1972-01-01T10:00:20.021Z.");

    [Fact]
    public void ACharacterReferenceXmlForbidsIsRefusedInANumber() =>
        Assert.Equal(
            "The XML body is not well-formed: <int32_value> holds a character reference to U+000B, a character XML 1.0 does not allow.",
            CodecHelpers.ReadFails(CodecNames.Xml, "<root><int32_value>&#11;5</int32_value></root>", Scalars.Descriptor).Message);

    private static Scalars Read(string elements) => CodecHelpers.Read<Scalars>(CodecNames.Xml, $"<root>{elements}</root>");

    private static void AssertRefused(string element, string text, string expected) =>
        Assert.Equal(expected, CodecHelpers.ReadFails(CodecNames.Xml, $"<root><{element}>{text}</{element}></root>", Scalars.Descriptor).Message);
}
