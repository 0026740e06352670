using System.Buffers;
using System.IO.Compression;

namespace ProtoHttp;

/// <summary>
/// Inflates one gzipped Connect message, stopping one byte past a limit: a small gzip bomb costs at most the limit in
/// memory, whichever side received it. The server (requests) and the client (responses) say what a failure means.
/// </summary>
internal static class BoundedGzip
{
    /// <summary>The inflated bytes, in a pooled array the caller returns; <see langword="false"/> when over <paramref name="limit"/>.</summary>
    /// <exception cref="InvalidDataException">The bytes are not gzip.</exception>
    public static bool TryDecompress(ReadOnlySequence<byte> compressed, long limit, out byte[] pooled, out int length)
    {
        // One byte past the limit is enough to know the message is over it.
        var cap = (int)Math.Min(limit + 1, Array.MaxLength);
        var buffer = ArrayPool<byte>.Shared.Rent((int)Math.Min(Math.Max(compressed.Length * 4, 1024), cap));
        length = 0;
        try
        {
            using var input = new GZipStream(new MemoryStream(compressed.ToArray()), CompressionMode.Decompress);
            while (true)
            {
                if (length == buffer.Length)
                {
                    if (length >= cap)
                    {
                        break;
                    }

                    var larger = ArrayPool<byte>.Shared.Rent((int)Math.Min((long)buffer.Length * 2, cap));
                    buffer.AsSpan(0, length).CopyTo(larger);
                    ArrayPool<byte>.Shared.Return(buffer);
                    buffer = larger;
                }

                var read = input.Read(buffer, length, Math.Min(buffer.Length, cap) - length);
                if (read == 0)
                {
                    break;
                }

                length += read;
            }
        }
        catch
        {
            ArrayPool<byte>.Shared.Return(buffer);
            throw;
        }

        if (length > limit)
        {
            ArrayPool<byte>.Shared.Return(buffer);
            pooled = [];
            return false;
        }

        pooled = buffer;
        return true;
    }
}
