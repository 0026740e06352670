using System.Buffers;
using System.IO.Compression;
using Grpc.Core;
using Microsoft.AspNetCore.Http;
using ProtoHttp.AspNetCore.Internal;

namespace ProtoHttp.AspNetCore.Pipeline;

/// <summary>
/// gzip of one message's bytes, for every protocol that compresses messages (which headers agree on it is the
/// protocol's). Decompression stops at the request limit, so a small gzip bomb costs at most that much memory and
/// answers <c>ResourceExhausted</c>.
/// </summary>
internal static class GzipPayloads
{
    /// <summary>Reads the message gzipped in <paramref name="compressed"/>, inflated at most to <paramref name="limit"/>.</summary>
    /// <exception cref="CallRejectedException">Over the limit (<c>ResourceExhausted</c>) or not gzip (<c>InvalidArgument</c>).</exception>
    public static Google.Protobuf.IMessage ReadMessage(
        IMessageReader reader, ReadOnlySequence<byte> compressed, Google.Protobuf.Reflection.MessageDescriptor descriptor, long limit)
    {
        var (pooled, length) = Decompress(compressed, limit);
        try
        {
            return reader.Read(new ReadOnlySequence<byte>(pooled, 0, length), descriptor);
        }
        finally
        {
            ArrayPool<byte>.Shared.Return(pooled);
        }
    }

    public static byte[] Compress(ReadOnlySpan<byte> data)
    {
        using var output = new MemoryStream();
        using (var gzip = new GZipStream(output, CompressionLevel.Fastest, leaveOpen: true))
        {
            gzip.Write(data);
        }

        return output.ToArray();
    }

    /// <summary>The decompressed bytes, in a pooled array the caller returns.</summary>
    /// <exception cref="CallRejectedException">Over <paramref name="limit"/> (<c>ResourceExhausted</c>) or not gzip (<c>InvalidArgument</c>).</exception>
    private static (byte[] Pooled, int Length) Decompress(ReadOnlySequence<byte> compressed, long limit)
    {
        try
        {
            return BoundedGzip.TryDecompress(compressed, limit, out var pooled, out var length)
                ? (pooled, length)
                : throw new CallRejectedException(StatusCodes.Status429TooManyRequests, StatusCode.ResourceExhausted,
                    $"The decompressed message is larger than the limit of {limit} bytes.");
        }
        catch (InvalidDataException ex)
        {
            throw CallRejectedException.BadRequest($"The message is not valid gzip: {ex.Message}");
        }
    }
}
