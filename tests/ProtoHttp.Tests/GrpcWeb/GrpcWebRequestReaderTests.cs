using Google.Protobuf;
using Google.Protobuf.WellKnownTypes;
using Grpc.Core;
using Microsoft.AspNetCore.Http;
using ProtoHttp.AspNetCore.Internal;
using ProtoHttp.AspNetCore.Protocols.GrpcWeb;

namespace ProtoHttp.Tests.GrpcWeb;

/// <summary>The request of a unary or server-streaming gRPC-Web call: exactly one well-formed message frame.</summary>
public sealed class GrpcWebRequestReaderTests
{
    private static readonly MessageCodecs Codecs = new(FormatOptions.Default);
    private static readonly GrpcWebMediaType Binary = GrpcWebMediaTypes.Parse("application/grpc-web", Codecs)!;
    private static readonly GrpcWebMediaType Text = GrpcWebMediaTypes.Parse("application/grpc-web-text", Codecs)!;
    private static readonly GrpcWebMediaType Json = GrpcWebMediaTypes.Parse("application/grpc-web+json", Codecs)!;

    [Fact]
    public async Task OneFrameIsTheMessage()
    {
        var message = await ReadAsync(Binary, Frame(0, new StringValue { Value = "chai" }.ToByteArray()));

        Assert.Equal("chai", ((StringValue)message).Value);
    }

    [Fact]
    public async Task AJsonFrameIsReadWithTheJsonCodec()
    {
        var message = await ReadAsync(Json, Frame(0, "\"chai\""u8.ToArray()));

        Assert.Equal("chai", ((StringValue)message).Value);
    }

    [Fact]
    public async Task AnEmptyFrameIsTheEmptyMessage() => Assert.Equal(new StringValue(), await ReadAsync(Binary, Frame(0, [])));

    [Fact]
    public async Task ATextBodyIsDecodedFirst()
    {
        var frame = Frame(0, new StringValue { Value = "chai" }.ToByteArray());
        var body = System.Text.Encoding.ASCII.GetBytes(Convert.ToBase64String(frame, 0, 2) + Convert.ToBase64String(frame, 2, frame.Length - 2));

        var message = await ReadAsync(Text, body);

        Assert.Equal("chai", ((StringValue)message).Value);
    }

    [Theory]
    [InlineData(new byte[0], StatusCode.Unimplemented, "holds no message frame")]
    [InlineData(new byte[] { 0, 0, 0 }, StatusCode.InvalidArgument, "needs a 5-byte header")]
    [InlineData(new byte[] { 0, 0, 0, 0, 4, 1 }, StatusCode.InvalidArgument, "says it holds 4 bytes, but the body has 1")]
    [InlineData(new byte[] { 0, 0, 0, 0, 0, 0, 0, 0, 0, 0 }, StatusCode.Unimplemented, "more than one frame")]
    [InlineData(new byte[] { 1, 0, 0, 0, 0 }, StatusCode.Unimplemented, "compressed")]
    [InlineData(new byte[] { 0x80, 0, 0, 0, 0 }, StatusCode.InvalidArgument, "flags 0x80")]
    [InlineData(new byte[] { 0, 0, 0, 0, 2, 0xff, 0xff }, StatusCode.InvalidArgument, null)]
    public async Task WhatIsNotOneGoodFrameIsRefusedSayingWhy(byte[] body, StatusCode code, string? text)
    {
        var exception = await Record.ExceptionAsync(() => ReadAsync(Binary, body));

        var (actualCode, message) = exception switch
        {
            CallRejectedException rejected => (rejected.Code, rejected.Message),
            InvalidMessageException invalid => (StatusCode.InvalidArgument, invalid.Message),
            _ => throw new Xunit.Sdk.XunitException($"Unexpected {exception}"),
        };
        Assert.Equal(code, actualCode);
        Assert.Contains(text ?? "", message);
    }

    [Theory]
    [InlineData(false)]
    [InlineData(true)]
    public async Task AMessageOverTheLimitIsResourceExhaustedNamingTheLimit(bool text)
    {
        var frame = Frame(0, new StringValue { Value = new string('x', 200) }.ToByteArray());
        var body = text ? System.Text.Encoding.ASCII.GetBytes(Convert.ToBase64String(frame)) : frame;

        var refusal = await Assert.ThrowsAsync<CallRejectedException>(() => ReadAsync(text ? Text : Binary, body, limit: 100));

        Assert.Equal(StatusCode.ResourceExhausted, refusal.Code);
        Assert.Equal("The request message is larger than the limit of 100 bytes.", refusal.Message);
    }

    [Fact]
    public async Task AFrameHeaderClaimingMoreThanTheLimitIsRefusedBeforeTheBodyArrives()
    {
        var refusal = await Assert.ThrowsAsync<CallRejectedException>(() => ReadAsync(Binary, [0, 0x7f, 0xff, 0xff, 0xff], limit: 100));

        Assert.Equal(StatusCode.ResourceExhausted, refusal.Code);
    }

    private static async Task<IMessage> ReadAsync(GrpcWebMediaType type, byte[] body, long limit = 4 * 1024 * 1024)
    {
        var context = new DefaultHttpContext();
        context.Request.Body = new MemoryStream(body);
        var reader = type.Codec;
        return await GrpcWebRequestReader.ReadAsync(context, type, reader, StringValue.Descriptor, limit, inPlaceLimit: 1024, CancellationToken.None);
    }

    private static byte[] Frame(byte flags, byte[] payload)
    {
        var frame = new byte[5 + payload.Length];
        frame[0] = flags;
        System.Buffers.Binary.BinaryPrimitives.WriteInt32BigEndian(frame.AsSpan(1), payload.Length);
        payload.CopyTo(frame, 5);
        return frame;
    }
}
