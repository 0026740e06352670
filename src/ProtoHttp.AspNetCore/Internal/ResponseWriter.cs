using Google.Protobuf;
using Microsoft.AspNetCore.Http;
using ProtoHttp.AspNetCore.Internal.Caching;

namespace ProtoHttp.AspNetCore.Internal;

/// <summary>
/// Writes a whole message as the response body, with its <c>Content-Type</c> and <c>Content-Length</c>; for an answer
/// that can be conditional, through its <see cref="ConditionalGet"/>, which may answer <c>304</c> instead.
/// </summary>
internal static class ResponseWriter
{
    private const int SingleSpanLimit = 16 * 1024;

    public static async Task WriteAsync(
        HttpResponse response, int status, IMessage message, WritableMediaType type, ConditionalGet? conditional = null)
    {
        response.StatusCode = status;
        if (type.Codec == MessageCodecs.Protobuf && conditional is null)
        {
            response.ContentType = type.ContentType;
            // Protobuf knows its size up front: write straight into the response pipe.
            var size = message.CalculateSize();
            response.ContentLength = size;
            var output = response.BodyWriter;
            if (size <= SingleSpanLimit)
            {
                message.WriteTo(output.GetSpan(size)[..size]);
                output.Advance(size);
            }
            else
            {
                // Protobuf's buffer writer starts with Advance(0), which Kestrel refuses before any GetSpan/GetMemory.
                output.GetSpan();
                message.WriteTo(output);
            }

            await output.FlushAsync();
            return;
        }

        // Text formats learn their size only by writing, and a tag needs the whole body: buffer once, so that
        // Content-Length and ETag can precede the body.
        using var buffer = PooledBufferWriter.Rent(4096);
        type.Codec.Write(message, buffer.Writer);

        if (conditional?.NotModified(response.HttpContext, type.ContentType, buffer.WrittenMemory.Span) == true)
        {
            return;
        }

        response.ContentType = type.ContentType;
        response.ContentLength = buffer.WrittenMemory.Length;
        await response.BodyWriter.WriteAsync(buffer.WrittenMemory);
    }
}
