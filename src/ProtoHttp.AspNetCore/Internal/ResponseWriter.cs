using System.Buffers;
using Google.Protobuf;
using Microsoft.AspNetCore.Http;

namespace ProtoHttp.AspNetCore.Internal;

/// <summary>Writes a whole message as the response body, with its <c>Content-Type</c> and <c>Content-Length</c>.</summary>
internal static class ResponseWriter
{
    public static async Task WriteAsync(HttpResponse response, int status, IMessage message, WritableMediaType type, MessageCodecs codecs)
    {
        response.StatusCode = status;
        response.ContentType = type.ContentType;
        if (type.Format == MessageFormat.Protobuf)
        {
            // Protobuf knows its size up front: write straight into the response pipe.
            response.ContentLength = message.CalculateSize();
            message.WriteTo(response.BodyWriter);
            await response.BodyWriter.FlushAsync();
            return;
        }

        // Text formats learn their size only by writing: buffer once so Content-Length can precede the body.
        var buffer = new ArrayBufferWriter<byte>(4096);
        codecs.Writer(type.Format)!.Write(message, buffer);
        response.ContentLength = buffer.WrittenCount;
        await response.BodyWriter.WriteAsync(buffer.WrittenMemory);
    }
}
