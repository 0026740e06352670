using System.Buffers;
using Google.Protobuf;
using Google.Protobuf.Reflection;
using Grpc.Core;
using Microsoft.AspNetCore.Http;
using ProtoHttp.AspNetCore.Internal;
using ProtoHttp.Streaming;

namespace ProtoHttp.AspNetCore.GrpcWeb;

/// <summary>
/// Reads the request of a unary or server-streaming gRPC-Web call: a body of exactly one message frame (flag 0x00, a
/// 4-byte big-endian length, the message), in base64 for the text types. Each message is at most the request limit.
/// </summary>
internal static class GrpcWebRequestReader
{
    /// <summary>The header naming the compression of the request's frames; only <c>identity</c> is read.</summary>
    public const string EncodingHeader = "grpc-encoding";

    /// <exception cref="CallRejectedException">
    /// Not one well-formed frame (<c>INVALID_ARGUMENT</c>; none or more than one, <c>UNIMPLEMENTED</c>, as gRPC has it for
    /// a unary request), a compressed frame (<c>UNIMPLEMENTED</c>), or over the limit (<c>RESOURCE_EXHAUSTED</c>).
    /// </exception>
    public static async ValueTask<IMessage> ReadAsync(
        HttpContext context, GrpcWebMediaType type, IMessageReader reader, MessageDescriptor descriptor, long limit, long inPlaceLimit,
        CancellationToken cancellationToken)
    {
        // The body may hold the frame's header besides the message, and base64 a third more than that.
        var frameLimit = limit + Envelope.HeaderLength;
        var bodyLimit = type.Text ? GrpcWebText.EncodedLength(frameLimit) + 64 : frameLimit;
        using var body = await ReadBodyAsync(context, bodyLimit, limit, inPlaceLimit, cancellationToken);
        var data = type.Text ? new ReadOnlySequence<byte>(GrpcWebText.Decode(body.Data)) : body.Data;
        if (data.IsEmpty)
        {
            throw Unimplemented("The request body holds no message frame; a unary or server-streaming call takes exactly one request message.");
        }

        if (!Envelope.TryReadHeader(data, out var flags, out var length))
        {
            throw CallRejectedException.BadRequest($"The request body holds {data.Length} bytes; a message frame needs a 5-byte header.");
        }

        if (flags != Envelope.MessageFlag)
        {
            throw flags == Envelope.CompressedFlag
                ? Unimplemented(
                    $"The request frame is compressed ({EncodingHeader}: {context.Request.Headers[EncodingHeader]}); this server reads identity only, so send it uncompressed.")
                : CallRejectedException.BadRequest($"A request frame has the flags 0x{flags:x2}; a request message's frame has the flags 0x00.");
        }

        if (length > limit)
        {
            throw TooLarge(limit);
        }

        if (data.Length < Envelope.HeaderLength + (long)length)
        {
            throw CallRejectedException.BadRequest(
                $"The request frame says it holds {length} bytes, but the body has {data.Length - Envelope.HeaderLength} after the header.");
        }

        if (data.Length > Envelope.HeaderLength + (long)length)
        {
            throw Unimplemented("The request body holds more than one frame; a unary or server-streaming call takes exactly one request message.");
        }

        return reader.Read(data.Slice(Envelope.HeaderLength), descriptor);
    }

    private static async ValueTask<RequestBody> ReadBodyAsync(HttpContext context, long bodyLimit, long limit, long inPlaceLimit, CancellationToken cancellationToken)
    {
        try
        {
            return await RequestBodyReader.ReadAsync(context, bodyLimit, inPlaceLimit, cancellationToken);
        }
        catch (CallRejectedException rejected) when (rejected.HttpStatus == StatusCodes.Status413PayloadTooLarge)
        {
            // The limit is the message's; the body around it (a frame header, base64) may rightly be larger.
            throw TooLarge(limit);
        }
    }

    private static CallRejectedException TooLarge(long limit) =>
        new(StatusCodes.Status413PayloadTooLarge, StatusCode.ResourceExhausted, $"The request message is larger than the limit of {limit} bytes.");

    private static CallRejectedException Unimplemented(string text) => new(StatusCodes.Status400BadRequest, StatusCode.Unimplemented, text);
}
