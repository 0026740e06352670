using System.Buffers;
using System.IO.Compression;
using Grpc.Core;
using Microsoft.AspNetCore.Http;
using ProtoHttp.AspNetCore.Internal;

namespace ProtoHttp.AspNetCore.Connect;

/// <summary>
/// gzip for Connect messages, the one compression besides <c>identity</c> this server speaks. Decompression stops at
/// the request limit, so a small gzip bomb costs at most that much memory and answers <c>resource_exhausted</c>.
/// </summary>
internal static class ConnectCompression
{
    public const string Gzip = "gzip";
    public const string Identity = "identity";

    /// <summary>What the server accepts, for <c>Accept-Encoding</c> on an <c>unimplemented</c> refusal.</summary>
    public const string Supported = "gzip, identity";

    /// <summary>Whether <paramref name="encoding"/> (a Content-Encoding value or a GET's compression) is gzip.</summary>
    /// <exception cref="CallRejectedException">An encoding other than gzip and identity: <c>unimplemented</c>.</exception>
    public static bool IsGzip(string? encoding)
    {
        if (string.IsNullOrEmpty(encoding) || encoding.Equals(Identity, StringComparison.OrdinalIgnoreCase))
        {
            return false;
        }

        if (encoding.Equals(Gzip, StringComparison.OrdinalIgnoreCase))
        {
            return true;
        }

        throw new CallRejectedException(StatusCodes.Status501NotImplemented, StatusCode.Unimplemented,
            $"The compression '{encoding}' is not supported; this server reads {Supported}.")
        {
            Hint = new("Accept-Encoding", Supported),
        };
    }

    /// <summary>Whether an <c>Accept-Encoding</c>-style list names gzip without <c>q=0</c>.</summary>
    public static bool Accepts(string? acceptEncoding)
    {
        foreach (var item in (acceptEncoding ?? "").Split(',', StringSplitOptions.TrimEntries | StringSplitOptions.RemoveEmptyEntries))
        {
            var parts = item.Split(';', StringSplitOptions.TrimEntries);
            if (parts[0].Equals(Gzip, StringComparison.OrdinalIgnoreCase))
            {
                return !parts.Skip(1).Any(parameter => parameter.StartsWith("q=", StringComparison.OrdinalIgnoreCase)
                    && double.TryParse(parameter[2..], System.Globalization.CultureInfo.InvariantCulture, out var q) && q == 0);
            }
        }

        return false;
    }

    /// <summary>
    /// Whether an answer may go out gzipped: the client lists gzip in <paramref name="acceptEncoding"/>, or sends no such
    /// list and gzipped its request, which the Connect spec says then stands for what it accepts.
    /// </summary>
    public static bool AnswersGzip(Microsoft.Extensions.Primitives.StringValues acceptEncoding, string? requestEncoding) =>
        acceptEncoding.Count == 0 ? string.Equals(requestEncoding, Gzip, StringComparison.OrdinalIgnoreCase) : Accepts(acceptEncoding);

    /// <summary>Reads the message gzipped in <paramref name="compressed"/>, inflated at most to <paramref name="limit"/>.</summary>
    /// <exception cref="CallRejectedException">Over the limit (<c>resource_exhausted</c>) or not gzip (<c>invalid_argument</c>).</exception>
    public static Google.Protobuf.IMessage ReadGzipped(
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

    /// <summary>The decompressed bytes, in a pooled array the caller returns.</summary>
    /// <exception cref="CallRejectedException">Over <paramref name="limit"/> (<c>resource_exhausted</c>) or not gzip (<c>invalid_argument</c>).</exception>
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

    public static byte[] Compress(ReadOnlySpan<byte> data)
    {
        using var output = new MemoryStream();
        using (var gzip = new GZipStream(output, CompressionLevel.Fastest, leaveOpen: true))
        {
            gzip.Write(data);
        }

        return output.ToArray();
    }
}
