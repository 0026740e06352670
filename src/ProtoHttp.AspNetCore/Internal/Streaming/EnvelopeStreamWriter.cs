using Google.Protobuf;
using Microsoft.AspNetCore.Http;
using ProtoHttp.Streaming;

namespace ProtoHttp.AspNetCore.Internal.Streaming;

/// <summary>Connect envelopes: one per message in the stream's codec, then the end-stream envelope with the outcome.</summary>
internal sealed class EnvelopeStreamWriter(HttpContext context, StreamMediaType type, IMessageCodec codec) : StreamResponseWriter(context, type)
{
    protected override async Task WriteMessageCoreAsync(IMessage message, CancellationToken cancellationToken)
    {
        var output = Response.BodyWriter;
        if (codec.Format == MessageFormat.Protobuf)
        {
            Envelope.WriteProtobuf(output, message);
        }
        else
        {
            using var payload = new PooledBufferWriter(512);
            codec.Write(message, payload);
            Envelope.Write(output, Envelope.MessageFlag, payload.WrittenMemory.Span);
        }

        await FlushAsync(cancellationToken);
    }

    protected override async Task WriteEndCoreAsync(StreamOutcome outcome, CancellationToken cancellationToken)
    {
        using var payload = new PooledBufferWriter(256);
        StreamEndRecord.WriteConnectEnd(outcome, payload);
        Envelope.Write(Response.BodyWriter, Envelope.EndStreamFlag, payload.WrittenMemory.Span);
        await FlushAsync(cancellationToken);
    }
}
