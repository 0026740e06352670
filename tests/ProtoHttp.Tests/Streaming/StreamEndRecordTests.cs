using System.Buffers;
using System.Text;
using Grpc.Core;
using ProtoHttp.AspNetCore.Framing;

namespace ProtoHttp.Tests.Streaming;

public sealed class StreamEndRecordTests
{
    private static readonly Metadata Trailers = new() { { "x-rows", "2" }, { "x-rows", "3" }, { "trace-bin", new byte[] { 1, 2 } } };

    [Fact]
    public void TheEndEventIsTheCodeAloneOnSuccess()
    {
        Assert.Equal("{\"code\":\"OK\"}", Write(w => StreamEndRecord.WriteEventData(StreamOutcome.Ok(null), w)));
    }

    [Fact]
    public void TheEndEventOfAFailureIsItsErrorResultWithTheTrailers()
    {
        var outcome = new StreamOutcome(StatusCode.NotFound, "No product 7 <here>.", Trailers);

        Assert.Equal(
            "{\"code\":\"NOT_FOUND\",\"errorText\":\"No product 7 <here>.\",\"metadata\":{\"x-rows\":[\"2\",\"3\"],\"trace-bin\":[\"AQI=\"]}}",
            Write(w => StreamEndRecord.WriteEventData(outcome, w)));
    }

    [Fact]
    public void ASuccessfulLineStreamWithoutTrailersHasNoLastLine()
    {
        var buffer = new ArrayBufferWriter<byte>();

        Assert.False(StreamEndRecord.WriteLine(StreamOutcome.Ok(null), buffer));
        Assert.Equal(0, buffer.WrittenCount);
    }

    [Fact]
    public void LastLinesCarryTheErrorAndTheTrailers()
    {
        Assert.Equal("{\"metadata\":{\"x-rows\":[\"2\",\"3\"],\"trace-bin\":[\"AQI=\"]}}\n", Write(w => StreamEndRecord.WriteLine(StreamOutcome.Ok(Trailers), w)));
        Assert.Equal("{\"error\":{\"code\":\"ABORTED\",\"errorText\":\"stop\"}}\n",
            Write(w => StreamEndRecord.WriteLine(new StreamOutcome(StatusCode.Aborted, "stop", null), w)));
    }

    [Theory]
    [InlineData(StatusCode.OK, "", "{}")]
    [InlineData(StatusCode.Cancelled, "gone", "{\"error\":{\"code\":\"canceled\",\"message\":\"gone\"}}")]
    [InlineData(StatusCode.DeadlineExceeded, "", "{\"error\":{\"code\":\"deadline_exceeded\"}}")]
    public void TheConnectEndStreamMessageUsesConnectsCodeNames(StatusCode code, string text, string expected)
    {
        Assert.Equal(expected, Write(w => StreamEndRecord.WriteEnvelopeEnd(new StreamOutcome(code, text, null), w)));
    }

    [Fact]
    public void ALoneSurrogateIsWrittenVisibly()
    {
        var text = Write(w => StreamEndRecord.WriteEventData(new StreamOutcome(StatusCode.Internal, "bad \uD800 text", null), w));

        Assert.Contains("bad \\\\uD800 text", text);
    }

    private static string Write(Action<IBufferWriter<byte>> write)
    {
        var buffer = new ArrayBufferWriter<byte>();
        write(buffer);
        return Encoding.UTF8.GetString(buffer.WrittenSpan);
    }
}
