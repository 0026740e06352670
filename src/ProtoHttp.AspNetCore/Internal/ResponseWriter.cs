using System.Buffers;
using System.IO.Pipelines;
using Google.Protobuf;
using Microsoft.AspNetCore.Http;
using Microsoft.AspNetCore.Http.Features;
using ProtoHttp.AspNetCore.Caching;

namespace ProtoHttp.AspNetCore.Internal;

/// <summary>
/// Writes a whole message as the response body, with its <c>Content-Type</c> and <c>Content-Length</c>; for an answer
/// that can be conditional, through its <see cref="ConditionalGet"/>, which may answer <c>304</c> instead.
/// </summary>
internal static class ResponseWriter
{
    private const int SingleSpanLimit = 16 * 1024;

    public static Task WriteAsync(
        HttpResponse response, int status, IMessage message, WritableMediaType type, ConditionalGet? conditional = null)
    {
        response.StatusCode = status;
        if (type.Codec == MessageCodecs.Protobuf && conditional is null)
        {
            var output = response.BodyWriter;
            response.ContentType = type.ContentType;
            // Protobuf knows its size up front: write straight into the response pipe.
            var size = message.CalculateSize();
            response.ContentLength = size;
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

            return Sent(response, output);
        }

        // Text formats learn their size only by writing, and a tag needs the whole body: buffer once, so that
        // Content-Length and ETag can precede the body.
        using var buffer = PooledBufferWriter.Rent(4096);
        type.Codec.Write(message, buffer.Writer);

        if (conditional?.NotModified(response.HttpContext, type.ContentType, buffer.WrittenMemory.Span) == true)
        {
            return Task.CompletedTask;
        }

        response.ContentType = type.ContentType;
        response.ContentLength = buffer.WrittenMemory.Length;
        response.BodyWriter.Write(buffer.WrittenMemory.Span);
        return Sent(response, response.BodyWriter);
    }

    // A whole answer, written: left in the server's own pipe, flushed through a body a middleware wrapped. Without a
    // state machine when nothing waits (the common case).
    private static Task Sent(HttpResponse response, PipeWriter output)
    {
        if (IsServersOwnBody(response))
        {
            return Task.CompletedTask;
        }

        var flush = output.FlushAsync();
        return flush.IsCompletedSuccessfully ? Task.CompletedTask : flush.AsTask();
    }

    /// <summary>
    /// Whether the body is the server's own (Kestrel's, not one a middleware put in front of it). Then a whole answer
    /// is left in the server's pipe unflushed: the end of the request sends it with the end of the response, as
    /// grpc-dotnet's unary answer is sent. Over HTTP/2 that is one DATA frame carrying END_STREAM, where a flush sends
    /// the data and then an empty DATA frame to end the stream. A body a middleware wrapped (HTTP logging, response
    /// compression, output caching) is flushed as before: its writer is completed only once the response has
    /// completed, after the middleware has read or passed on what it was given.
    /// </summary>
    /// <remarks>
    /// Kestrel implements the request and the response body features as one object (its connection's call); a
    /// middleware that wraps the body (or sets <see cref="HttpResponse.Body"/>) replaces only the body feature.
    /// </remarks>
    private static bool IsServersOwnBody(HttpResponse response)
    {
        var features = response.HttpContext.Features;
        return ReferenceEquals(features.Find<IHttpResponseBodyFeature>(), features.Find<IHttpRequestFeature>());
    }
}
