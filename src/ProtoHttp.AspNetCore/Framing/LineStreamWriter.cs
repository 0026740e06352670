using System.Buffers;
using System.Text;
using Google.Protobuf;
using Microsoft.AspNetCore.Http;
using ProtoHttp.AspNetCore.Internal;
using ProtoHttp.Streaming;

namespace ProtoHttp.AspNetCore.Framing;

/// <summary>NDJSON: one <c>{"result": …}</c> line per message; a failure (or trailers) in one last line.</summary>
internal sealed class LineStreamWriter(HttpContext context, StreamMediaType type, IMessageCodec json) : StreamResponseWriter(context, type)
{
    protected internal override IMessageCodec SharedCodec => json;

    protected internal override void Frame(IMessage message, TopicPosition? position, IBufferWriter<byte> output)
    {
        output.Write("{\"result\":"u8);
        json.Write(message, output);
        if (position is { } id)
        {
            // Where the message sits in its topic, to send back as Last-Event-ID (docs/protocol.md, "Topics: streams that resume").
            output.Write(Encoding.ASCII.GetBytes($",\"id\":\"{id}\""));
        }

        output.Write("}\n"u8);
    }

    protected override bool FrameGap(TopicPosition after, IBufferWriter<byte> output)
    {
        output.Write(Encoding.ASCII.GetBytes($"{{\"gap\":{{\"lastEventId\":\"{after}\"}}}}\n"));
        return true;
    }

    protected override async Task WriteMessageCoreAsync(IMessage message, CancellationToken cancellationToken)
    {
        cancellationToken.ThrowIfCancellationRequested();
        // Written whole before it goes out, so a message JSON cannot carry fails without leaving half a line.
        using var line = PooledBufferWriter.Rent(512);
        Frame(message, null, line.Writer);
        Response.BodyWriter.Write(line.WrittenMemory.Span);
        await FlushAsync(cancellationToken);
    }

    protected override async Task WriteEndCoreAsync(StreamOutcome outcome, CancellationToken cancellationToken)
    {
        using var line = PooledBufferWriter.Rent(256);
        if (StreamEndRecord.WriteLine(outcome, line.Writer))
        {
            Response.BodyWriter.Write(line.WrittenMemory.Span);
        }

        await FlushAsync(cancellationToken);
    }
}
