using Google.Protobuf;
using Microsoft.AspNetCore.Http;
using ProtoHttp.Streaming;

namespace ProtoHttp.AspNetCore.Internal.Streaming;

/// <summary>Connect envelopes: one per message in the stream's codec, then the end-stream envelope with the outcome.</summary>
internal sealed class EnvelopeStreamWriter(HttpContext context, StreamMediaType type, IMessageCodec codec) : StreamResponseWriter(context, type)
{
    private const int SingleSpanLimit = 16 * 1024;

    protected override async Task WriteMessageCoreAsync(IMessage message, CancellationToken cancellationToken)
    {
        var output = Response.BodyWriter;
        if (codec.Format == MessageFormat.Protobuf)
        {
            // Protobuf knows its size up front: header and message go straight into the response pipe.
            var size = message.CalculateSize();
            if (size <= SingleSpanLimit)
            {
                var span = output.GetSpan(Envelope.HeaderLength + size);
                Envelope.WriteHeader(span, Envelope.MessageFlag, size);
                message.WriteTo(span.Slice(Envelope.HeaderLength, size));
                output.Advance(Envelope.HeaderLength + size);
            }
            else
            {
                Envelope.WriteHeader(output.GetSpan(Envelope.HeaderLength), Envelope.MessageFlag, size);
                output.Advance(Envelope.HeaderLength);
                message.WriteTo(output);
            }
        }
        else
        {
            using var payload = new PooledBufferWriter(512);
            codec.Write(message, payload);
            WriteEnvelope(output, Envelope.MessageFlag, payload.WrittenMemory.Span);
        }

        await FlushAsync(cancellationToken);
    }

    protected override async Task WriteEndCoreAsync(StreamOutcome outcome, CancellationToken cancellationToken)
    {
        using var payload = new PooledBufferWriter(256);
        StreamEndRecord.WriteConnectEnd(outcome, payload);
        WriteEnvelope(Response.BodyWriter, Envelope.EndStreamFlag, payload.WrittenMemory.Span);
        await FlushAsync(cancellationToken);
    }

    private static void WriteEnvelope(System.IO.Pipelines.PipeWriter output, byte flags, ReadOnlySpan<byte> payload)
    {
        var span = output.GetSpan(Envelope.HeaderLength + payload.Length);
        Envelope.WriteHeader(span, flags, payload.Length);
        payload.CopyTo(span[Envelope.HeaderLength..]);
        output.Advance(Envelope.HeaderLength + payload.Length);
    }
}
