using System.Buffers;
using System.Buffers.Binary;

namespace ProtoHttp.Streaming;

/// <summary>
/// The Connect streaming envelope (PROTOCOL.md sections 9 and 10): one flag byte, a 4-byte big-endian length, then
/// that many bytes of payload.
/// </summary>
internal static class Envelope
{
    public const int HeaderLength = 5;

    /// <summary>A message in the stream's codec.</summary>
    public const byte MessageFlag = 0x00;

    /// <summary>The payload is compressed with the stream's <c>Connect-Content-Encoding</c>.</summary>
    public const byte CompressedFlag = 0x01;

    /// <summary>The last envelope of a response: a JSON object with the call's outcome and trailers.</summary>
    public const byte EndStreamFlag = 0x02;

    public static void WriteHeader(Span<byte> destination, byte flags, int length)
    {
        destination[0] = flags;
        BinaryPrimitives.WriteInt32BigEndian(destination[1..], length);
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
