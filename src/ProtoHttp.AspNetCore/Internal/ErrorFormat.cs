using Microsoft.AspNetCore.Http;

namespace ProtoHttp.AspNetCore.Internal;

/// <summary>Picks the format of an ErrorResult when the call failed before its response format was known.</summary>
internal static class ErrorFormat
{
    public static WritableMediaType Choose(HttpRequest request, WritableMediaType? forced)
    {
        if (forced is not null)
        {
            return forced;
        }

        var own = MessageFormat.Json;
        if (HttpMethods.IsPost(request.Method) && request.ContentType is { Length: > 0 } contentType)
        {
            var match = MediaTypes.MatchContentType(contentType);
            if (match.Status == ContentTypeStatus.Readable && match.Format != MessageFormat.Form)
            {
                own = match.Format;
            }
        }

        // docs/protocol.md section 5: JSON when negotiation itself fails.
        return AcceptNegotiator.Negotiate(request.Headers.Accept, own) ?? MediaTypes.Canonical(MessageFormat.Json);
    }
}
