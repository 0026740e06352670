using System.Buffers;
using System.Text;
using Google.Protobuf;
using Microsoft.AspNetCore.Http;
using ProtoHttp.AspNetCore.Internal;
using ProtoHttp.AspNetCore.Pipeline;
using ProtoHttp.Streaming;

namespace ProtoHttp.AspNetCore.Framing;

/// <summary>
/// Connect envelopes: one per message in the stream's codec, then the end-stream envelope with the outcome. With
/// <see cref="GzipMinSize"/> set (a client that accepts gzip, as its protocol agreed), every envelope whose payload is at least that
/// long, the end-stream one too, goes out gzipped with the compressed flag (0x01) set, as Connect's streaming protocol
/// says; smaller ones go out as they are, flag clear.
/// </summary>
internal sealed class EnvelopeStreamWriter(HttpContext context, StreamMediaType type, IMessageCodec codec) : StreamResponseWriter(context, type)
{
    /// <summary>The smallest payload that is gzipped; <see langword="null"/>: none is.</summary>
    public int? GzipMinSize { get; init; }

    /// <summary>Whether each topic message goes after an <see cref="Envelope.EventIdFlag"/> envelope with its id: the client asked (<see cref="Envelope.EventIdsHeader"/>).</summary>
    public bool WritesEventIds { get; init; }

    /// <summary>Gzipped envelopes depend on the client's gzip; only plain ones are shared.</summary>
    protected internal override IMessageCodec? SharedCodec => GzipMinSize is null ? codec : null;

    protected internal override void Frame(IMessage message, TopicPosition? position, IBufferWriter<byte> output)
    {
        if (codec == MessageCodecs.Protobuf)
        {
            Envelope.WriteProtobuf(output, message);
            return;
        }

        using var payload = PooledBufferWriter.Rent(512);
        codec.Write(message, payload.Writer);
        Envelope.Write(output, Envelope.MessageFlag, payload.WrittenMemory.Span);
    }

    protected override void WritePosition(TopicPosition position, IBufferWriter<byte> output)
    {
        if (WritesEventIds)
        {
            Envelope.Write(output, Envelope.EventIdFlag, Encoding.ASCII.GetBytes(position.ToString()));
        }
    }

    protected override async Task WriteMessageCoreAsync(IMessage message, CancellationToken cancellationToken)
    {
        var output = Response.BodyWriter;
        if (codec == MessageCodecs.Protobuf && (GzipMinSize is not { } minSize || message.CalculateSize() < minSize))
        {
            // Protobuf knows its size up front: header and message go straight into the response pipe, unless it is to
            // be gzipped.
            Envelope.WriteProtobuf(output, message);
        }
        else
        {
            using var payload = PooledBufferWriter.Rent(512);
            codec.Write(message, payload.Writer);
            WriteEnvelope(output, Envelope.MessageFlag, payload.WrittenMemory.Span);
        }

        await FlushAsync(cancellationToken);
    }

    protected override async Task WriteEndCoreAsync(StreamOutcome outcome, CancellationToken cancellationToken)
    {
        using var payload = PooledBufferWriter.Rent(256);
        StreamEndRecord.WriteEnvelopeEnd(outcome, payload.Writer);
        WriteEnvelope(Response.BodyWriter, Envelope.EndStreamFlag, payload.WrittenMemory.Span);
        await FlushAsync(cancellationToken);
    }

    private void WriteEnvelope(IBufferWriter<byte> output, byte flags, ReadOnlySpan<byte> payload)
    {
        if (GzipMinSize is { } minSize && payload.Length >= minSize)
        {
            payload = GzipPayloads.Compress(payload);
            flags |= Envelope.CompressedFlag;
        }

        Envelope.Write(output, flags, payload);
    }
}
