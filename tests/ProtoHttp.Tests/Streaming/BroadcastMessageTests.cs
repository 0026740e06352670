using System.Runtime.InteropServices;
using System.Text;
using Grpc.Core;
using Microsoft.AspNetCore.Http;
using ProtoHttp.AspNetCore;
using ProtoHttp.AspNetCore.Framing;
using ProtoHttp.Streaming;
using ProtoService;

namespace ProtoHttp.Tests.Streaming;

/// <summary>
/// A <see cref="BroadcastMessage{T}"/> written to many streams: each framing's bytes are made once and are the bytes a
/// plain write of the message gives.
/// </summary>
public sealed class BroadcastMessageTests
{
    private static readonly MessageCodecs Codecs = new(FormatOptions.Default);
    private static readonly SearchRequest Request = new() { Query = "chai\nand \"tea\"\r\n", ResultPerPage = 2 };

    // Each framing by name; envelopes once per codec.
    public static TheoryData<string> Framings => ["Events", "Lines", "ConnectProto", "ConnectJson"];

    [Theory]
    [MemberData(nameof(Framings))]
    public async Task EveryStreamGetsTheBytesOfAPlainWrite(string format)
    {
        var plain = await WriteAsync(format, stream => stream.WriteAsync(Request));
        var shared = new BroadcastMessage<SearchRequest>(Request);

        var first = await WriteAsync(format, stream => stream.WriteAsync(shared));
        var second = await WriteAsync(format, stream => stream.WriteAsync(shared));

        Assert.NotEmpty(plain);
        Assert.Equal(plain, first);
        Assert.Equal(plain, second);
    }

    [Theory]
    [MemberData(nameof(Framings))]
    public void AFramingIsMadeOnceForAllItsStreams(string format)
    {
        ISharedFrames shared = new BroadcastMessage<SearchRequest>(Request);

        var first = shared.FramedFor(Writer(format, new DefaultHttpContext()), Codec(format));
        var second = shared.FramedFor(Writer(format, new DefaultHttpContext()), Codec(format));

        Assert.True(MemoryMarshal.TryGetArray(first, out var a));
        Assert.True(MemoryMarshal.TryGetArray(second, out var b));
        Assert.Same(a.Array, b.Array);
    }

    [Fact]
    public void EachFramingHasItsOwnBytes()
    {
        ISharedFrames shared = new BroadcastMessage<SearchRequest>(Request);

        var events = shared.FramedFor(Writer("Events", new DefaultHttpContext()), Codec("Events"));
        var lines = shared.FramedFor(Writer("Lines", new DefaultHttpContext()), Codec("Lines"));

        Assert.StartsWith("data: {", Encoding.UTF8.GetString(events.Span), StringComparison.Ordinal);
        Assert.StartsWith("{\"result\":{", Encoding.UTF8.GetString(lines.Span), StringComparison.Ordinal);
    }

    [Fact]
    public async Task AStreamThatIsNotProtoHttpsGetsTheMessage()
    {
        var other = new RecordingStreamWriter();

        await other.WriteAsync(new BroadcastMessage<SearchRequest>(Request));

        Assert.Same(Request, Assert.Single(other.Written));
    }

    [Fact]
    public void AnEventIsOneDataLinePerLineOfItsData()
    {
        // Canonical JSON never has a line break; other data is split into data lines, which a reader joins with "\n".
        var output = new System.Buffers.ArrayBufferWriter<byte>();

        EventStreamWriter.WriteEvent(output, "end"u8, "{\"a\":1}\r\n{\"b\":2}\r\r\n"u8);

        Assert.Equal("event: end\ndata: {\"a\":1}\ndata: {\"b\":2}\ndata: \ndata: \n\n", Encoding.UTF8.GetString(output.WrittenSpan));
    }

    private static async Task<string> WriteAsync(string format, Func<ResponseStreamWriter<SearchRequest>, Task> write)
    {
        var context = new DefaultHttpContext();
        var body = new MemoryStream();
        context.Response.Body = body;
        await using (var writer = Writer(format, context))
        {
            await write(new ResponseStreamWriter<SearchRequest>(writer, CancellationToken.None));
        }

        return Convert.ToHexString(body.ToArray());
    }

    private static StreamResponseWriter Writer(string format, HttpContext context) =>
        StreamResponseWriter.For(context, new StreamMediaType("x/" + format, Framing(format), "x/" + format, Codec(format)), Timeout.InfiniteTimeSpan);

    private static StreamFormat Framing(string format) => format switch
    {
        "Events" => StreamFormat.Events,
        "Lines" => StreamFormat.Lines,
        _ => StreamFormat.Envelopes,
    };

    private static MessageCodec Codec(string format) => Codecs.Codec(format == "ConnectProto" ? CodecNames.Protobuf : CodecNames.Json);

    private sealed class RecordingStreamWriter : IServerStreamWriter<SearchRequest>
    {
        public List<SearchRequest> Written { get; } = [];

        public WriteOptions? WriteOptions { get; set; }

        public Task WriteAsync(SearchRequest message)
        {
            Written.Add(message);
            return Task.CompletedTask;
        }
    }
}
