using Microsoft.AspNetCore.Http;

namespace ProtoHttp.AspNetCore.Negotiation;

/// <summary>Picks the format of an ErrorResult when the call failed before its response format was known.</summary>
internal static class ErrorFormat
{
    public static WritableMediaType Choose(HttpRequest request, MessageCodecs codecs)
    {
        var own = codecs.Codec(CodecNames.Json);
        if (HttpMethods.IsPost(request.Method) && request.ContentType is { Length: > 0 } contentType)
        {
            var match = codecs.MatchContentType(contentType);
            if (match is { Status: ContentTypeStatus.Readable, Codec.CanWrite: true })
            {
                own = match.Codec;
            }
        }

        // docs/protocol.md section 5: JSON when negotiation itself fails.
        return AcceptNegotiator.Negotiate(codecs, request.Headers.Accept, own) ?? codecs.Canonical(CodecNames.Json);
    }
}
