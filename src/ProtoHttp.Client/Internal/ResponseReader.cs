using System.Buffers;
using System.Text;
using Google.Protobuf;
using Grpc.Core;
using ProtoHttp.Client.Internal.Protocols;

namespace ProtoHttp.Client.Internal;

/// <summary>
/// Turns an answer into the call's outcome: a 2xx body into the response message, anything else into an
/// <see cref="RpcException"/> that carries the server's ErrorResult or, when there is none, says what came back.
/// </summary>
internal static class ResponseReader
{
    // Enough for any ErrorResult a server writes and for a proxy's error page to be recognised; the rest is not read.
    private const int MaxErrorBodySize = 64 * 1024;
    private const int PrefixBytes = 256;
    private const int PrefixChars = 200;

    /// <summary>
    /// A unary answer as ProtoHttp and Connect send it: a 2xx body in a codec <paramref name="protocol"/> reads, its
    /// trailers given to <paramref name="outcome"/>; anything else becomes the protocol's error.
    /// </summary>
    /// <exception cref="RpcException">The call failed, or the body is not a message of the expected type.</exception>
    public static async Task<IMessage> ReadUnaryAsync(
        ClientWireProtocol protocol, HttpResponseMessage response, ClientMethod method, IUnaryOutcome outcome, CancellationToken cancellationToken)
    {
        if (!response.IsSuccessStatusCode)
        {
            throw await protocol.ReadErrorAsync(response, cancellationToken).ConfigureAwait(false);
        }

        var contentType = ContentType(response);
        var reader = contentType is null ? null : protocol.ResponseCodec(contentType);
        if (reader is null)
        {
            using var prefix = await ResponseBody.ReadAsync(response.Content, PrefixBytes, truncate: true, cancellationToken).ConfigureAwait(false);
            if (contentType is null && prefix.Data.IsEmpty)
            {
                // No type and no body is the empty message, as it is for requests (docs/protocol.md section 3).
                outcome.Succeed(protocol.UnaryTrailers(response));
                return MessageFactory.Create(method.ResponseDescriptor);
            }

            throw new RpcException(new Status(StatusCode.Internal,
                $"The response to {method.FullName} is not a message. {Describe(response, contentType, prefix)}."));
        }

        IMessage message;
        using (var body = await ResponseBody.ReadAsync(response.Content, method.Settings.MaxResponseSize, truncate: false, cancellationToken).ConfigureAwait(false))
        {
            try
            {
                message = reader.Read(body.Data, method.ResponseDescriptor);
            }
            catch (InvalidMessageException ex)
            {
                throw new RpcException(new Status(StatusCode.Internal, $"The response to {method.FullName} could not be read: {ex.Message}"));
            }
        }

        outcome.Succeed(protocol.UnaryTrailers(response));
        return message;
    }

    /// <summary>The exception a non-2xx answer becomes.</summary>
    public static async Task<RpcException> ReadErrorAsync(
        HttpResponseMessage response, MessageCodecs codecs, Metadata trailers, CancellationToken cancellationToken)
    {
        var httpStatus = (int)response.StatusCode;
        var contentType = ContentType(response);
        using var body = await ResponseBody.ReadAsync(response.Content, MaxErrorBodySize, truncate: true, cancellationToken).ConfigureAwait(false);
        if (!body.Truncated && ReaderFor(contentType, codecs) is { } reader && TryReadError(reader, body.Data) is { } error)
        {
            var code = StatusMapping.TryParseCodeName(error.Code, out var named) && named != StatusCode.OK
                ? named
                : StatusMapping.FromHttpStatus(httpStatus);
            return new RpcException(new Status(code, error.ErrorText), trailers);
        }

        return new RpcException(new Status(StatusMapping.FromHttpStatus(httpStatus), Describe(response, contentType, body) + ", not an ErrorResult."), trailers);
    }

    private static string? ContentType(HttpResponseMessage response) =>
        response.Content.Headers.TryGetValues("Content-Type", out var values) ? string.Join(", ", values) : null;

    /// <summary>The codec that writes answers and reads <paramref name="contentType"/>, or <see langword="null"/>.</summary>
    public static MessageCodec? ReaderFor(string? contentType, MessageCodecs codecs)
    {
        if (contentType is null)
        {
            return null;
        }

        // An answer is in a codec that writes: a form is none.
        var match = codecs.MatchContentType(contentType);
        return match is { Status: ContentTypeStatus.Readable, Codec.CanWrite: true } ? match.Codec : null;
    }

    private static ErrorResult? TryReadError(MessageCodec reader, ReadOnlySequence<byte> body)
    {
        try
        {
            var error = (ErrorResult)reader.Read(body, ErrorResult.Descriptor);

            // An empty one is no ErrorResult at all: an empty body, or another API's JSON object.
            return error.Code.Length > 0 || error.ErrorText.Length > 0 ? error : null;
        }
        catch (InvalidMessageException)
        {
            return null;
        }
    }

    /// <summary>Says exactly what came back, e.g. <c>502 Bad Gateway, Content-Type 'text/html', body '&lt;html&gt;…'</c>.</summary>
    private static string Describe(HttpResponseMessage response, string? contentType, ResponseBody body)
    {
        var text = new StringBuilder();
        text.Append("The server answered ").Append((int)response.StatusCode);
        if (!string.IsNullOrEmpty(response.ReasonPhrase))
        {
            text.Append(' ').Append(response.ReasonPhrase);
        }

        text.Append(contentType is null ? " with no Content-Type" : $" with Content-Type '{contentType}'");
        if (body.Data.IsEmpty)
        {
            return text.Append(" and an empty body").ToString();
        }

        var prefix = body.Data.Slice(0, Math.Min(body.Data.Length, PrefixBytes));
        var decoded = string.Join(' ', Encoding.UTF8.GetString(prefix).Split((char[]?)null, StringSplitOptions.RemoveEmptyEntries));
        var cut = body.Truncated || prefix.Length < body.Data.Length || decoded.Length > PrefixChars;
        text.Append(" and the body '").Append(decoded.AsSpan(0, Math.Min(decoded.Length, PrefixChars))).Append(cut ? "…'" : "'");
        return text.ToString();
    }
}
