using System.Buffers;
using System.Text;
using Google.Protobuf;
using ProtoHttp.Tests.Protos;
using ProtoHttp.Tests.Protos.Proto2;
using ProtoHttp.Json;

namespace ProtoHttp.Tests.Formats;

/// <summary>The native JSON writer's bytes equal Google.Protobuf's JsonFormatter output under the same settings.</summary>
public class JsonWriterTests
{
    public static TheoryData<string, bool> Samples() => AllTypesSamples.NamesWithBothJsonNameStyles();

    [Theory]
    [MemberData(nameof(Samples))]
    public void AllTypesSamplesMatchJsonFormatter(string sample, bool protoNames) =>
        AssertSame(AllTypesSamples.All[sample], protoNames);

    [Theory]
    [InlineData(false)]
    [InlineData(true)]
    public void NorthwindOrdersMatchJsonFormatter(bool protoNames)
    {
        AssertSame(NorthwindData.All, protoNames);
        foreach (var order in NorthwindData.All.Orders)
        {
            AssertSame(order, protoNames);
        }
    }

    [Theory]
    [InlineData(false)]
    [InlineData(true)]
    public void ErrorResultMatchesJsonFormatter(bool protoNames)
    {
        AssertSame(new ErrorResult(), protoNames);
        AssertSame(new ErrorResult { ErrorText = "No <order> \"42\"\n", Code = "NOT_FOUND" }, protoNames);
    }

    [Fact]
    public void EveryAsciiCharacterIsEscapedAsJsonFormatterEscapesIt()
    {
        for (var c = 0; c <= 0x7F; c++)
        {
            AssertSame(new Scalars { StringValue = $"a{(char)c}b", Tags = { ((char)c).ToString() } }, protoNames: false);
        }
    }

    [Fact]
    public void EveryOtherBmpCharacterIsEscapedAsJsonFormatterEscapesIt()
    {
        var text = new StringBuilder();
        for (var c = 0x80; c <= 0xFFFF; c++)
        {
            if (!char.IsSurrogate((char)c))
            {
                text.Append((char)c);
            }
        }

        AssertSame(new Scalars { StringValue = text.ToString() }, protoNames: false);
        AssertSame(new Maps { StringToString = { [text.ToString()] = "\u2028\u2029" } }, protoNames: true);
    }

    [Theory]
    [InlineData("\u2028\u2029")]
    [InlineData("😀 pairs 𝄞 \U0010FFFF")]
    [InlineData("ü & <Chang> 'tea' = \"x\" \\ /")]
    public void AdversarialStringsMatchJsonFormatter(string text) =>
        AssertSame(new Repeated { Strings = { text, "", text } }, protoNames: false);

    [Fact]
    public void LoneSurrogatesAreRefusedAsJsonFormatterRefusesThem()
    {
        // Built in code: attribute arguments are stored as UTF-8, which would turn lone surrogates into U+FFFD.
        foreach (var text in new[] { "lone " + '\ud83d' + " high", "lone " + '\ude00' + " low", "ends high " + '\ud83d', '\ude00' + "\ud83d" })
        {
            var message = new Scalars { StringValue = text };
            Assert.ThrowsAny<ArgumentException>(() => Formatter(false).Format(message));
            Assert.ThrowsAny<ArgumentException>(() => JsonMessageWriter.For(FormatOptions.Default).Write(message, new ArrayBufferWriter<byte>()));
        }
    }

    [Fact]
    public void SeededRandomMessagesMatchJsonFormatter()
    {
        var random = new Random(20261122);
        var descriptors = new[] { AllTypes.Descriptor, Scalars.Descriptor, Repeated.Descriptor, Maps.Descriptor, Choice.Descriptor, Optionals.Descriptor, WellKnown.Descriptor, Legacy.Descriptor };
        for (var i = 0; i < 400; i++)
        {
            var message = JsonWriterSamples.Random(descriptors[i % descriptors.Length], random);
            AssertSame(message, protoNames: i % 2 == 0);
        }
    }

    [Fact]
    public void TimestampsAcrossTheRangeMatchJsonFormatter()
    {
        var random = new Random(7);
        var nanos = new[] { 0, 1, 10, 1_000, 10_000, 1_000_000, 100_000_000, 999_999_999 };
        for (var i = 0; i < 500; i++)
        {
            var time = new Google.Protobuf.WellKnownTypes.Timestamp
            {
                Seconds = i < 2 ? (i == 0 ? -62_135_596_800 : 253_402_300_799) : random.NextInt64(-62_135_596_800, 253_402_300_800),
                Nanos = nanos[i % nanos.Length],
            };
            AssertSame(new Choice { Time = time }, protoNames: false);
        }
    }

    [Fact]
    public void OutOfRangeTimestampsFailAsInJsonFormatter()
    {
        var message = new Choice { Time = new Google.Protobuf.WellKnownTypes.Timestamp { Seconds = 253_402_300_800 } };
        var expected = Assert.ThrowsAny<Exception>(() => Formatter(false).Format(message));
        var actual = Assert.ThrowsAny<Exception>(() => JsonMessageWriter.For(FormatOptions.Default).Write(message, new ArrayBufferWriter<byte>()));
        Assert.Equal(expected.GetType(), actual.GetType());
    }

    [Fact]
    public void WellKnownTypesAtTheRootMatchJsonFormatter()
    {
        AssertSame(new Google.Protobuf.WellKnownTypes.Empty(), protoNames: false);
        AssertSame(new Google.Protobuf.WellKnownTypes.Timestamp { Seconds = 1, Nanos = 5 }, protoNames: false);
        AssertSame(new Google.Protobuf.WellKnownTypes.Int32Value { Value = 3 }, protoNames: true);
        AssertSame(new WithAny(), protoNames: false);
    }

    [Fact]
    public void AnyFailsAsInJsonFormatter()
    {
        // No type registry: JsonFormatter cannot write an Any, and the writer hands it to JsonFormatter.
        var message = new WithAny { Any = Google.Protobuf.WellKnownTypes.Any.Pack(new Nested { Name = "x" }) };
        var expected = Assert.ThrowsAny<Exception>(() => Formatter(false).Format(message));
        var actual = Assert.ThrowsAny<Exception>(() => JsonMessageWriter.For(FormatOptions.Default).Write(message, new ArrayBufferWriter<byte>()));
        Assert.Equal(expected.GetType(), actual.GetType());
    }

    [Fact]
    public void ConcurrentWritersShareThePlansSafely()
    {
        var sample = AllTypesSamples.All["all-types"];
        Parallel.For(0, 200, i => AssertSame(i % 2 == 0 ? sample : NorthwindData.All.Orders[i], protoNames: i % 3 == 0));
    }

    [Fact]
    public void TheCodecWritesWithTheNativeWriter()
    {
        var order = NorthwindData.All.Orders[0];
        Assert.Equal(Encoding.UTF8.GetBytes(Formatter(false).Format(order)), CodecHelpers.Write(CodecNames.Json, order));
    }

    private static JsonFormatter Formatter(bool protoNames) =>
        new(JsonFormatter.Settings.Default.WithPreserveProtoFieldNames(protoNames));

    private static void AssertSame(IMessage message, bool protoNames)
    {
        var expected = Formatter(protoNames).Format(message);
        var output = new ArrayBufferWriter<byte>(16);
        JsonMessageWriter.For(new FormatOptions { PreserveProtoFieldNames = protoNames }).Write(message, output);
        var actual = output.WrittenSpan.ToArray();

        // Text first for a readable diff; then the bytes, which are what the codec promises.
        Assert.Equal(expected, Encoding.UTF8.GetString(actual));
        Assert.Equal(Encoding.UTF8.GetBytes(expected), actual);
    }
}
