using System.Buffers;
using System.Text;
using Google.Protobuf;
using Google.Protobuf.Reflection;
using Microsoft.AspNetCore.Antiforgery;
using Microsoft.AspNetCore.Http;
using Microsoft.AspNetCore.Http.Features;

using ProtoHttp.AspNetCore.Internal;
using ProtoHttp.AspNetCore.Pipeline;

namespace ProtoHttp.AspNetCore.Protocols.Native;

/// <summary>
/// Reads the one request message of a call, from the query string of a GET or from a body in any format of docs/protocol.md
/// section 2: first which reader the request needs and what its own format is, then the message. Unary and
/// server-streaming calls share it.
/// </summary>
internal static class MessageRequestReader
{
    /// <summary>The query binder and the own codec of a GET: JSON.</summary>
    public static (MessageCodec? Reader, MessageCodec Own) ForQuery(MessageCodecs codecs) => (codecs.Codec(CodecNames.Form), codecs.Codec(CodecNames.Json));

    /// <summary>The codec a POST body's <c>Content-Type</c> names, and the request's own codec (JSON for one that writes nothing).</summary>
    /// <exception cref="CallRejectedException">The type is missing for a body, unknown, not UTF-8 (415), or a form without a valid antiforgery token (400).</exception>
    public static (MessageCodec? Reader, MessageCodec Own) ForBody(HttpRequest request, MessageCodecs codecs)
    {
        var contentType = request.ContentType;
        if (string.IsNullOrEmpty(contentType))
        {
            if (!HasBody(request))
            {
                return (null, codecs.Codec(CodecNames.Json)); // No type and no body: the empty message.
            }

            throw CallRejectedException.UnsupportedMediaType("The request has a body but no Content-Type header.", codecs);
        }

        var match = codecs.MatchContentType(contentType);
        if (match.Status == ContentTypeStatus.UnsupportedCharset)
        {
            throw CallRejectedException.UnsupportedMediaType($"The Content-Type '{contentType}' names a charset other than utf-8; text formats must be UTF-8.", codecs);
        }

        if (match.Codec is not { } reader)
        {
            throw CallRejectedException.UnsupportedMediaType($"The Content-Type '{contentType}' is not a format this service reads.", codecs);
        }

        if (reader == codecs.Codec(CodecNames.Form) && request.HttpContext.Features.Get<IAntiforgeryValidationFeature>() is { IsValid: false } antiforgery)
        {
            // ASP.NET Core's antiforgery middleware ran (the app registered antiforgery) and refused the form's token.
            throw CallRejectedException.BadRequest($"The form post has no valid antiforgery token: {antiforgery.Error?.Message}");
        }

        return (reader, reader.CanWrite ? reader : codecs.Codec(CodecNames.Json));
    }

    public static bool HasBody(HttpRequest request) =>
        request.ContentLength is > 0
        || request.ContentLength is null && (request.HttpContext.Features.Get<IHttpRequestBodyDetectionFeature>()?.CanHaveBody ?? false);

    public static IMessage ReadQuery(HttpRequest request, IMessageReader? reader, MessageDescriptor descriptor)
    {
        var query = request.QueryString.Value;
        if (string.IsNullOrEmpty(query) || query == "?")
        {
            return MessageFactory.Create(descriptor);
        }

        if (reader is null)
        {
            throw CallRejectedException.BadRequest("This server does not bind query strings.");
        }

        // The raw query is ASCII by construction (anything else is percent-encoded); the binder decodes it. Its bytes
        // are needed only while it is read, as a body's are (a reader keeps nothing of its input).
        var length = query.Length - 1;
        var bytes = ArrayPool<byte>.Shared.Rent(length);
        try
        {
            Encoding.Latin1.GetBytes(query.AsSpan(1), bytes);
            return reader.Read(new ReadOnlySequence<byte>(bytes, 0, length), descriptor);
        }
        finally
        {
            ArrayPool<byte>.Shared.Return(bytes);
        }
    }

    /// <summary>The whole body, within the service's limit (docs/protocol.md section 7): 413 over it.</summary>
    public static ValueTask<RequestBody> ReadBodyBytesAsync(HttpContext context, CallSettings settings, CancellationToken cancellationToken) =>
        RequestBodyReader.ReadAsync(context, settings.Options.MaxRequestBodySize, settings.InPlaceBodyLimit, cancellationToken);

    /// <summary>Reads the message in the body and checks its required fields.</summary>
    public static ValueTask<IMessage> ReadBodyAsync(
        HttpContext context, IMessageReader? reader, MessageDescriptor descriptor, CallSettings settings, CancellationToken cancellationToken)
    {
        if (reader is null)
        {
            // No body: the empty message, which must still have what a proto2 message requires.
            var empty = MessageFactory.Create(descriptor);
            settings.Codecs.CheckRequiredFields(empty);
            return new ValueTask<IMessage>(empty);
        }

        // A body already here (the common small one) is parsed without a state machine.
        var reading = ReadBodyBytesAsync(context, settings, cancellationToken);
        return reading.IsCompletedSuccessfully
            ? new ValueTask<IMessage>(Parse(reading.Result, reader, descriptor, settings))
            : ParseOnceReadAsync(reading, reader, descriptor, settings);
    }

    private static async ValueTask<IMessage> ParseOnceReadAsync(
        ValueTask<RequestBody> reading, IMessageReader reader, MessageDescriptor descriptor, CallSettings settings) =>
        Parse(await reading, reader, descriptor, settings);

    private static IMessage Parse(RequestBody body, IMessageReader reader, MessageDescriptor descriptor, CallSettings settings)
    {
        using (body)
        {
            var message = reader.Read(body.Data, descriptor);
            settings.Codecs.CheckRequiredFields(message);
            return message;
        }
    }
}
