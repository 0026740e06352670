using System.Buffers;
using System.IO.Pipelines;
using Google.Protobuf;
using Google.Protobuf.Reflection;
using Grpc.Core;
using Microsoft.AspNetCore.Http;
using ProtoHttp.AspNetCore.Internal;
using ProtoHttp.Streaming;

namespace ProtoHttp.AspNetCore.Protocols.GrpcWeb;

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
        if (type.Translated)
        {
            return ReadFrame(context, await ReadTranslatedAsync(context.Request.BodyReader, frameLimit, limit, cancellationToken), reader, descriptor, limit);
        }

        using var body = await ReadBodyAsync(context, bodyLimit, limit, inPlaceLimit, cancellationToken);
        return ReadFrame(context, type.Text ? new ReadOnlySequence<byte>(GrpcWebText.Decode(body.Data)) : body.Data, reader, descriptor, limit);
    }

    private static IMessage ReadFrame(HttpContext context, ReadOnlySequence<byte> data, IMessageReader reader, MessageDescriptor descriptor, long limit)
    {
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

    /// <summary>
    /// The body of a request grpc-dotnet's gRPC-Web middleware translated: its reader (which undoes the text mode's
    /// base64 as it goes) is read the one way it supports, everything it returns consumed at once, until the end.
    /// </summary>
    private static async ValueTask<ReadOnlySequence<byte>> ReadTranslatedAsync(PipeReader pipe, long bodyLimit, long limit, CancellationToken cancellationToken)
    {
        var body = new ArrayBufferWriter<byte>();
        while (true)
        {
            ReadResult result;
            try
            {
                result = await CancellableBodyRead.ReadAsync(pipe, cancellationToken);
            }
            catch (InvalidOperationException malformed)
            {
                // The middleware's reader found the base64 cut short or malformed.
                throw CallRejectedException.BadRequest($"The {GrpcWebMediaTypes.Text} body is not base64: {malformed.Message}");
            }

            var buffer = result.Buffer;
            if (body.WrittenCount + buffer.Length > bodyLimit)
            {
                pipe.AdvanceTo(buffer.End);
                throw TooLarge(limit);
            }

            foreach (var segment in buffer)
            {
                body.Write(segment.Span);
            }

            pipe.AdvanceTo(buffer.End);
            if (result.IsCompleted)
            {
                return new ReadOnlySequence<byte>(body.WrittenMemory);
            }
        }
    }

    private static CallRejectedException TooLarge(long limit) =>
        new(StatusCodes.Status413PayloadTooLarge, StatusCode.ResourceExhausted, $"The request message is larger than the limit of {limit} bytes.");

    private static CallRejectedException Unimplemented(string text) => new(StatusCodes.Status400BadRequest, StatusCode.Unimplemented, text);
}
