using System.Buffers;
using Google.Protobuf;
using Microsoft.AspNetCore.Http;
using ProtoHttp.AspNetCore.Framing;
using ProtoHttp.AspNetCore.Internal;
using ProtoHttp.AspNetCore.Pipeline;
using ProtoHttp.Streaming;

namespace ProtoHttp.AspNetCore.Protocols.GrpcWeb;

/// <summary>
/// gRPC-Web's framing of an answer (docs/protocol.md section 12): status 200 in the call's type, a frame per message as
/// the service writes it, then the trailers frame with the status, for unary and server-streaming calls alike. In text
/// mode each write goes out as its own padded base64. The lock, the end and the flow control are
/// <see cref="StreamResponseWriter"/>'s.
/// </summary>
/// <param name="context">The call's context.</param>
/// <param name="type">The call's gRPC-Web type: the response's <c>Content-Type</c>, and whether it is base64 text.</param>
/// <param name="codec">What the messages are written in; <see langword="null"/> for an answer that is only trailers.</param>
internal sealed class GrpcWebResponseWriter(HttpContext context, GrpcWebMediaType type, MessageCodec? codec)
    : StreamResponseWriter(context, StreamTypeOf(type))
{
    /// <summary>The type as the pipeline's <see cref="CallExchange.ResponseStreamType"/> carries it.</summary>
    public static StreamMediaType StreamTypeOf(GrpcWebMediaType type) =>
        new(type.ContentType, StreamFormat.Envelopes, type.ContentType, type.Codec);

    protected override async Task WriteMessageCoreAsync(IMessage message, CancellationToken cancellationToken)
    {
        WriteFrame(output => Envelope.WriteMessage(output, message, codec!));
        await FlushAsync(cancellationToken);
    }

    protected override async Task WriteEndCoreAsync(StreamOutcome outcome, CancellationToken cancellationToken)
    {
        if (type.Translated)
        {
            // grpc-dotnet's middleware turns these into the trailers frame once the call returns.
            GrpcWebTrailers.AddTo(Response, outcome.Code, outcome.Text, outcome.Trailers);
        }
        else
        {
            WriteFrame(output => GrpcWebTrailers.Write(output, outcome.Code, outcome.Text, outcome.Trailers));
        }

        await FlushAsync(cancellationToken);
    }

    private void WriteFrame(Action<IBufferWriter<byte>> write)
    {
        if (!type.Text)
        {
            write(Response.BodyWriter);
            return;
        }

        using var frame = PooledBufferWriter.Rent(512);
        write(frame.Writer);
        GrpcWebText.Encode(frame.WrittenMemory.Span, Response.BodyWriter);
    }
}
