using System.Buffers.Binary;
using System.IO.Pipelines;
using System.Text;
using Grpc.Core;
using Microsoft.AspNetCore.Http;
using ProtoHttp.AspNetCore.Framing;
using ProtoHttp.AspNetCore.Internal;
using ProtoHttp.AspNetCore.Pipeline;
using ProtoHttp.Streaming;
using ProtoService;

namespace ProtoHttp.Tests.Streaming;

/// <summary>
/// Each framing as a unit, on a <see cref="DefaultHttpContext"/> (docs/protocol.md section 10): the bytes of its
/// messages and of its end, written by its <see cref="StreamResponseWriter"/>, and envelopes read back by
/// <see cref="EnvelopeStreamReader{TRequest}"/>, which stops at the first malformed one and keeps it as the fault.
/// The end records' own contents are <see cref="StreamEndRecordTests"/>'.
/// </summary>
public sealed class StreamFramingTests
{
    private static readonly MessageCodecs Codecs = new(FormatOptions.Default);
    private static readonly SearchRequest First = new() { Query = "chai", ResultPerPage = 1 };
    private static readonly SearchRequest Second = new() { Query = "tofu" };

    [Fact]
    public async Task AnEventStreamIsOneDataEventPerMessageThenTheEndEvent()
    {
        var body = await WriteAsync(StreamFormat.Events, CodecNames.Json);

        // Each message's data is its canonical JSON (Google.Protobuf's formatter), on one line.
        Assert.Equal(
            $"data: {Json(First)}\n\ndata: {Json(Second)}\n\nevent: end\ndata: {{\"code\":\"OK\"}}\n\n",
            Encoding.UTF8.GetString(body));
    }

    [Fact]
    public async Task ALineStreamIsOneLinePerMessageAndEndsWithoutALastLineWhenAllWentWell()
    {
        var body = await WriteAsync(StreamFormat.Lines, CodecNames.Json);

        Assert.Equal($"{{\"result\":{Json(First)}}}\n{{\"result\":{Json(Second)}}}\n", Encoding.UTF8.GetString(body));
    }

    [Theory]
    [InlineData(CodecNames.Json)]
    [InlineData(CodecNames.Protobuf)]
    public async Task AnEnvelopeStreamIsAFlaggedLengthPrefixedEnvelopePerMessageThenTheEndStreamEnvelope(string format)
    {
        var body = await WriteAsync(StreamFormat.Envelopes, format);

        var codec = Codecs.Codec(format);
        var offset = 0;
        foreach (var message in new[] { First, Second })
        {
            var (flags, payload) = NextEnvelope(body, ref offset);
            Assert.Equal(0x00, flags);
            Assert.Equal(message, codec.Read(new System.Buffers.ReadOnlySequence<byte>(payload), SearchRequest.Descriptor));
        }

        var (endFlags, end) = NextEnvelope(body, ref offset);
        Assert.Equal(0x02, endFlags);
        Assert.Equal("{}", Encoding.UTF8.GetString(end));
        Assert.Equal(body.Length, offset);
    }

    [Fact]
    public async Task EnvelopesAreReadOneMessageAtATimeUntilTheBodyEnds()
    {
        var reader = Reader([.. Envelope(0x00, First), .. Envelope(0x00, Second)]);

        Assert.True(await reader.MoveNext(CancellationToken.None));
        Assert.Equal(First, reader.Current);
        Assert.True(await reader.MoveNext(CancellationToken.None));
        Assert.Equal(Second, reader.Current);
        Assert.False(await reader.MoveNext(CancellationToken.None));
        Assert.Null(reader.Fault);
    }

    [Fact]
    public async Task ABodyThatEndsInsideAnEnvelopeIsTheClientsFaultAndStaysSo()
    {
        var whole = Envelope(0x00, Second);
        var reader = Reader([.. Envelope(0x00, First), .. whole.AsSpan(0, whole.Length - 2)]);

        Assert.True(await reader.MoveNext(CancellationToken.None));
        var fault = await Assert.ThrowsAsync<CallRejectedException>(() => reader.MoveNext(CancellationToken.None));

        Assert.Equal(StatusCodes.Status400BadRequest, fault.HttpStatus);
        Assert.Contains("ends inside an envelope", fault.Message, StringComparison.Ordinal);
        Assert.Same(fault, reader.Fault);
        Assert.Same(fault, await Assert.ThrowsAsync<CallRejectedException>(() => reader.MoveNext(CancellationToken.None)));
    }

    [Fact]
    public async Task ACompressedFlagWithoutAgreedCompressionHasTheProtocolsCode()
    {
        var rules = new EnvelopeRules(StatusCode.InvalidArgument, StatusCode.Internal);
        var reader = Reader([.. Envelope(0x01, First)], rules);

        var fault = await Assert.ThrowsAsync<CallRejectedException>(() => reader.MoveNext(CancellationToken.None));

        Assert.Equal(StatusCode.Internal, fault.Code);
        Assert.Same(fault, reader.Fault);
    }

    [Fact]
    public async Task AnEnvelopeOverTheLimitIsRefusedFromItsHeaderAlone()
    {
        byte[] header = [0x00, 0, 0, 0x10, 0x00]; // 4,096 bytes announced, none sent
        var reader = Reader(header, limit: 1024);

        var fault = await Assert.ThrowsAsync<CallRejectedException>(() => reader.MoveNext(CancellationToken.None));

        Assert.Equal(StatusCodes.Status413PayloadTooLarge, fault.HttpStatus);
        Assert.Equal(StatusCode.ResourceExhausted, fault.Code);
    }

    private static async Task<byte[]> WriteAsync(StreamFormat framing, string format)
    {
        var context = new DefaultHttpContext();
        var body = new MemoryStream();
        context.Response.Body = body;
        var codec = Codecs.Codec(format);
        var type = new StreamMediaType("x/stream", framing, "x/stream", codec);
        await using (var writer = StreamResponseWriter.For(context, type, Timeout.InfiniteTimeSpan))
        {
            await writer.WriteMessageAsync(First, CancellationToken.None);
            await writer.WriteMessageAsync(Second, CancellationToken.None);
            await writer.EndAsync(StreamOutcome.Ok(null));
        }

        return body.ToArray();
    }

    private static string Json(SearchRequest message) => Google.Protobuf.JsonFormatter.Default.Format(message);

    private static (byte Flags, byte[] Payload) NextEnvelope(byte[] body, ref int offset)
    {
        var flags = body[offset];
        var length = (int)BinaryPrimitives.ReadUInt32BigEndian(body.AsSpan(offset + 1, 4));
        var payload = body.AsSpan(offset + 5, length).ToArray();
        offset += 5 + length;
        return (flags, payload);
    }

    private static byte[] Envelope(byte flags, SearchRequest message)
    {
        var payload = Encoding.UTF8.GetBytes(Json(message));
        var envelope = new byte[5 + payload.Length];
        envelope[0] = flags;
        BinaryPrimitives.WriteUInt32BigEndian(envelope.AsSpan(1), (uint)payload.Length);
        payload.CopyTo(envelope, 5);
        return envelope;
    }

    private static EnvelopeStreamReader<SearchRequest> Reader(byte[] body, EnvelopeRules? rules = null, long limit = 64 * 1024) =>
        new(PipeReader.Create(new MemoryStream(body)), Codecs.Codec(CodecNames.Json), SearchRequest.Descriptor, Codecs, limit, inPlaceLimit: 64 * 1024, CancellationToken.None)
        {
            Rules = rules ?? EnvelopeRules.Plain,
        };
}
