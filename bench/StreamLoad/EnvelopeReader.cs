using System.Buffers;
using System.Buffers.Binary;
using System.IO.Pipelines;

namespace StreamLoad;

/// <summary>
/// Reads length-prefixed frames (1 flag byte, 4-byte big-endian length, payload) from a response body: Connect's
/// envelopes and gRPC's messages have the same shape. The handler sees each frame's flags and payload.
/// </summary>
internal static class EnvelopeReader
{
    public const byte EndStreamFlag = 0x02;

    /// <summary>Calls <paramref name="onFrame"/> per frame until the body ends; fails on a truncated frame.</summary>
    public static async Task ReadAllAsync(Stream body, Action<byte, ReadOnlySequence<byte>> onFrame, CancellationToken cancellationToken)
    {
        var reader = PipeReader.Create(body, new StreamPipeReaderOptions(bufferSize: 64 * 1024));
        try
        {
            while (true)
            {
                var result = await reader.ReadAsync(cancellationToken);
                var buffer = result.Buffer;
                while (TryReadFrame(ref buffer, out var flags, out var payload))
                {
                    onFrame(flags, payload);
                }

                reader.AdvanceTo(buffer.Start, buffer.End);
                if (result.IsCompleted)
                {
                    if (!buffer.IsEmpty)
                    {
                        throw new InvalidDataException($"The stream ended inside a frame ({buffer.Length} bytes left).");
                    }

                    return;
                }
            }
        }
        finally
        {
            await reader.CompleteAsync();
        }
    }

    private static bool TryReadFrame(ref ReadOnlySequence<byte> buffer, out byte flags, out ReadOnlySequence<byte> payload)
    {
        flags = 0;
        payload = default;
        if (buffer.Length < 5)
        {
            return false;
        }

        Span<byte> header = stackalloc byte[5];
        buffer.Slice(0, 5).CopyTo(header);
        var length = BinaryPrimitives.ReadUInt32BigEndian(header[1..]);
        if (buffer.Length < 5 + length)
        {
            return false;
        }

        flags = header[0];
        payload = buffer.Slice(5, length);
        buffer = buffer.Slice(5 + length);
        return true;
    }

    /// <summary>A frame holding <paramref name="message"/>, for a gRPC request or a Connect streaming request.</summary>
    public static byte[] Frame(byte[] message)
    {
        var frame = new byte[5 + message.Length];
        BinaryPrimitives.WriteUInt32BigEndian(frame.AsSpan(1), (uint)message.Length);
        message.CopyTo(frame, 5);
        return frame;
    }
}
