using Google.Protobuf;
using Microsoft.AspNetCore.Http;

namespace ProtoHttp.AspNetCore.Internal;

/// <summary>Writes a whole message as the response body, with its <c>Content-Type</c> and <c>Content-Length</c>.</summary>
internal static class ResponseWriter
{
    private const int SingleSpanLimit = 16 * 1024;

    public static async Task WriteAsync(HttpResponse response, int status, IMessage message, WritableMediaType type)
    {
        response.StatusCode = status;
        response.ContentType = type.ContentType;
        if (type.Codec == MessageCodecs.Protobuf)
        {
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

        // Text formats learn their size only by writing: buffer once so Content-Length can precede the body.
        using var buffer = new PooledBufferWriter(4096);
        type.Codec.Write(message, buffer);
        response.ContentLength = buffer.WrittenMemory.Length;
        await response.BodyWriter.WriteAsync(buffer.WrittenMemory);
    }
}
