using System.Buffers;
using System.Text;
using Google.Protobuf;
using Google.Protobuf.WellKnownTypes;
using ProtoHttp.Tests.Protos;
using ProtoHttp.Tests.Protos.Proto2;
using ProtoHttp.Xml;

namespace ProtoHttp.Tests.Formats;

/// <summary>
/// The native XML writer's bytes equal <see cref="XmlReferenceWriter"/>'s, read back they write the same bytes, and
/// <see cref="XmlLeafOracle"/>, which shares no text code with ProtoHttp, finds each field's value in them.
/// </summary>
public class XmlWriterTests
{
    public static TheoryData<string> Samples() => [.. AllTypesSamples.All.Keys];

    [Theory]
    [MemberData(nameof(Samples))]
    public void AllTypesSamplesMatchTheReference(string sample) => AssertSame(AllTypesSamples.All[sample]);

    [Fact]
    public void NorthwindOrdersMatchTheReference()
    {
        AssertSame(NorthwindData.All);
        foreach (var order in NorthwindData.All.Orders)
        {
            AssertSame(order);
        }
    }

    [Fact]
    public void EveryBmpCharacterIsEscapedAsXmlDictionaryWriterEscapesIt()
    {
        var text = new StringBuilder();
        for (var c = 0; c <= 0xFFFF; c++)
        {
            if (!char.IsSurrogate((char)c) && XmlText.CanCarry(((char)c).ToString()))
            {
                text.Append('a').Append((char)c);
            }
        }

        AssertSame(new Scalars { StringValue = text.ToString(), Tags = { "\r\n", "&amp;", "<![CDATA[x]]>", "]]>" } });
        AssertSame(new Maps { StringToString = { [text.ToString()] = "\t<\r>&" } });
    }

    [Theory]
    [InlineData("😀 pairs 𝄞 \U0010FFFF")]
    [InlineData("ü & <Chang> 'tea' = \"x\" \\ /\r\n")]
    public void AdversarialStringsMatchTheReference(string text) =>
        AssertSame(new Repeated { Strings = { text, "", text } });

    [Fact]
    public void LongStringsAndBytesCrossChunksIntact()
    {
        var text = string.Concat(Enumerable.Repeat("a&b😀ü\r", 5_000));
        AssertSame(new Scalars { StringValue = text, BytesValue = ByteString.CopyFrom([.. Enumerable.Range(0, 100_000).Select(i => (byte)i)]) });
    }

    [Fact]
    public void SeededRandomMessagesMatchTheReference()
    {
        var random = new Random(20261122);
        var descriptors = new[] { AllTypes.Descriptor, Scalars.Descriptor, Repeated.Descriptor, Maps.Descriptor, Choice.Descriptor, Optionals.Descriptor, WellKnown.Descriptor, Legacy.Descriptor };
        for (var i = 0; i < 400; i++)
        {
            AssertSame(JsonWriterSamples.Random(descriptors[i % descriptors.Length], random));
        }
    }

    [Fact]
    public void WellKnownTypesAtTheRootAreTheirFields()
    {
        AssertSame(new Empty());
        AssertSame(new Timestamp { Seconds = 1, Nanos = 5 });
        AssertSame(new Int32Value { Value = 3 });
        AssertSame(new WithAny { Any = Any.Pack(new Nested { Name = "x" }) });
    }

    [Fact]
    public void OutOfRangeTimestampsFailAsTheReferenceFails()
    {
        var message = new Choice { Time = new Timestamp { Seconds = 253_402_300_800 } };
        var expected = Assert.ThrowsAny<Exception>(() => XmlReferenceWriter.Write(message));
        var actual = Assert.ThrowsAny<Exception>(() => XmlMessageWriter.Write(message, new ArrayBufferWriter<byte>()));
        Assert.Equal(expected.GetType(), actual.GetType());
        Assert.Equal(expected.Message, actual.Message);
    }

    [Fact]
    public void ConcurrentWritersShareThePlansSafely()
    {
        var sample = AllTypesSamples.All["all-types"];
        Parallel.For(0, 200, i => AssertSame(i % 2 == 0 ? sample : NorthwindData.All.Orders[i]));
    }

    private static void AssertSame(IMessage message)
    {
        byte[] expected;
        try
        {
            expected = XmlReferenceWriter.Write(message);
        }
        catch (UnwritableMessageException)
        {
            // A string XML cannot carry (the random samples hold some): the writer must refuse it too.
            Assert.Throws<UnwritableMessageException>(() => XmlMessageWriter.Write(message, new ArrayBufferWriter<byte>()));
            return;
        }

        var output = new ArrayBufferWriter<byte>(16);
        XmlMessageWriter.Write(message, output);
        var actual = output.WrittenSpan.ToArray();
        XmlLeafOracle.AssertWritten(message, actual); // Structure and every leaf's text, by rules that share no code with ProtoHttp.

        // Text first for a readable diff; then the bytes, which are what the codec promises. Read back, the message
        // writes the same bytes again (not always an equal message: a proto3 -0.0 is unset, as in protobuf).
        Assert.Equal(Encoding.UTF8.GetString(expected), Encoding.UTF8.GetString(actual));
        Assert.Equal(expected, actual);
        Assert.Equal(expected, CodecHelpers.Write(CodecNames.Xml, CodecHelpers.Read(CodecNames.Xml, actual, message.Descriptor)));
    }
}
