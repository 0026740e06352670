using System.Buffers;
using System.Buffers.Binary;
using Google.Protobuf;

namespace ProtoHttp.Streaming;

/// <summary>
/// The Connect streaming envelope (docs/protocol.md section 10): one flag byte, a 4-byte big-endian length, then
/// that many bytes of payload.
/// </summary>
public static class Envelope
{
    /// <summary>The length of an envelope's header: one flag byte and a 4-byte big-endian length.</summary>
    public const int HeaderLength = 5;

    // Larger messages are written in pieces rather than asking the writer for one span that holds them whole.
    private const int SingleSpanLimit = 16 * 1024;

    /// <summary>A message in the stream's codec.</summary>
    public const byte MessageFlag = 0x00;

    /// <summary>The payload is compressed with the stream's <c>Connect-Content-Encoding</c>.</summary>
    public const byte CompressedFlag = 0x01;

    /// <summary>The last envelope of a response: a JSON object with the call's outcome and trailers.</summary>
    public const byte EndStreamFlag = 0x02;

    /// <summary>
    /// ProtoHttp's extension to Connect: the payload is the ASCII event id of the message in the next envelope, sent
    /// only to a client that asked with <see cref="EventIdsHeader"/> (docs/protocol.md, "Topics: streams that resume").
    /// </summary>
    public const byte EventIdFlag = 0x40;

    /// <summary>The request header (value <c>1</c>) with which a Connect client asks for <see cref="EventIdFlag"/> envelopes.</summary>
    public const string EventIdsHeader = "ProtoHttp-Event-Ids";

    /// <summary>Writes a header of <paramref name="flags"/> for a payload of <paramref name="length"/> bytes into the first <see cref="HeaderLength"/> bytes of <paramref name="destination"/>.</summary>
    public static void WriteHeader(Span<byte> destination, byte flags, int length)
    {
        destination[0] = flags;
        BinaryPrimitives.WriteInt32BigEndian(destination[1..], length);
    }

    /// <summary>Writes one envelope of <paramref name="flags"/> around <paramref name="payload"/>.</summary>
    public static void Write(IBufferWriter<byte> output, byte flags, ReadOnlySpan<byte> payload)
    {
        var span = output.GetSpan(HeaderLength + payload.Length);
        WriteHeader(span, flags, payload.Length);
        payload.CopyTo(span[HeaderLength..]);
        output.Advance(HeaderLength + payload.Length);
    }

    /// <summary>
    /// Writes a protobuf message's envelope straight into <paramref name="output"/>: protobuf knows its size up front,
    /// so no second buffer holds the message (the text codecs learn theirs only by writing).
    /// </summary>
    public static void WriteProtobuf(IBufferWriter<byte> output, IMessage message)
    {
        var size = message.CalculateSize();
        if (size <= SingleSpanLimit)
        {
            var span = output.GetSpan(HeaderLength + size);
            WriteHeader(span, MessageFlag, size);
            message.WriteTo(span.Slice(HeaderLength, size));
            output.Advance(HeaderLength + size);
        }
        else
        {
            WriteHeader(output.GetSpan(HeaderLength), MessageFlag, size);
            output.Advance(HeaderLength);
            message.WriteTo(output);
        }
    }

    /// <summary>Writes one message's envelope in <paramref name="codec"/>.</summary>
    public static void WriteMessage(IBufferWriter<byte> output, IMessage message, IMessageCodec codec)
    {
        if (codec == MessageCodecs.Protobuf)
        {
            WriteProtobuf(output, message);
            return;
        }

        var payload = new ArrayBufferWriter<byte>(256);
        codec.Write(message, payload);
        Write(output, MessageFlag, payload.WrittenSpan);
    }

    /// <summary>Reads a header from the start of <paramref name="buffer"/>, if it holds one yet.</summary>
    public static bool TryReadHeader(ReadOnlySequence<byte> buffer, out byte flags, out uint length)
    {
        if (buffer.Length < HeaderLength)
        {
            flags = 0;
            length = 0;
            return false;
        }

        Span<byte> header = stackalloc byte[HeaderLength];
        buffer.Slice(0, HeaderLength).CopyTo(header);
        flags = header[0];
        length = BinaryPrimitives.ReadUInt32BigEndian(header[1..]);
        return true;
    }
}
