using System.Text;
using Google.Protobuf;
using Google.Protobuf.WellKnownTypes;
using Grpc.Core;
using Microsoft.AspNetCore.Http;
using Microsoft.AspNetCore.Http.Features;
using ProtoHttp.AspNetCore.Framing;
using ProtoHttp.AspNetCore.Protocols.GrpcWeb;

namespace ProtoHttp.Tests.GrpcWeb;

/// <summary>gRPC-Web's framing of an answer: 200 in the call's type, a frame per message, the trailers frame last, nothing after it.</summary>
public sealed class GrpcWebResponseWriterTests
{
    private static readonly MessageCodecs Codecs = new(FormatOptions.Default);
    private static readonly MessageCodec Protobuf = Codecs.Codec(CodecNames.Protobuf);

    [Fact]
    public async Task MessagesThenTheTrailersFrame()
    {
        var (context, body) = Context();
        var writer = new GrpcWebResponseWriter(context, GrpcWebMediaTypes.Parse("application/grpc-web+proto", Codecs)!, Protobuf);

        await writer.WriteMessageAsync(new StringValue { Value = "a" }, CancellationToken.None);
        await writer.WriteMessageAsync(new StringValue { Value = "b" }, CancellationToken.None);
        await writer.EndAsync(StreamOutcome.Ok(new Metadata { { "count", "2" } }));

        Assert.Equal(200, context.Response.StatusCode);
        Assert.Equal("application/grpc-web+proto", context.Response.ContentType);
        Assert.Equal("no-cache", context.Response.Headers.CacheControl);
        byte[] expected =
        [
            0, 0, 0, 0, 3, 0x0a, 1, (byte)'a',
            0, 0, 0, 0, 3, 0x0a, 1, (byte)'b',
            0x80, 0, 0, 0, 26, .. "grpc-status: 0\r\ncount: 2\r\n"u8,
        ];
        Assert.Equal(expected, body.ToArray());
    }

    [Fact]
    public async Task InTextModeEachWriteIsItsOwnPaddedBase64()
    {
        var (context, body) = Context();
        var writer = new GrpcWebResponseWriter(context, GrpcWebMediaTypes.Parse("application/grpc-web-text", Codecs)!, Protobuf);

        await writer.WriteMessageAsync(new StringValue { Value = "a" }, CancellationToken.None);
        await writer.EndAsync(new StreamOutcome(StatusCode.NotFound, "gone", null));

        Assert.Equal("application/grpc-web-text", context.Response.ContentType);
        var trailers = "grpc-status: 5\r\ngrpc-message: gone\r\n"u8.ToArray();
        var expected = Convert.ToBase64String([0, 0, 0, 0, 3, 0x0a, 1, (byte)'a'])
            + Convert.ToBase64String([0x80, 0, 0, 0, (byte)trailers.Length, .. trailers]);
        Assert.Equal(expected, Encoding.ASCII.GetString(body.ToArray()));
    }

    [Fact]
    public async Task NoMessageFollowsTheEnd()
    {
        var (context, body) = Context();
        var writer = new GrpcWebResponseWriter(context, GrpcWebMediaTypes.Parse("application/grpc-web", Codecs)!, Protobuf);
        await writer.EndAsync(new StreamOutcome(StatusCode.DeadlineExceeded, "late", null));
        var length = body.Length;

        await Assert.ThrowsAsync<InvalidOperationException>(() => writer.WriteMessageAsync(new StringValue(), CancellationToken.None));
        Assert.Equal(length, body.Length);
    }

    private static (HttpContext Context, MemoryStream Body) Context()
    {
        var context = new DefaultHttpContext();
        var body = new MemoryStream();
        context.Features.Set<IHttpResponseBodyFeature>(new StreamResponseBodyFeature(body));
        return (context, body);
    }
}
