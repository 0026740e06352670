using Microsoft.AspNetCore.Http;
using ProtoHttp.AspNetCore.Internal;
using ProtoHttp.AspNetCore.Negotiation;

namespace ProtoHttp.AspNetCore.Pipeline;

/// <summary>
/// Writes ProtoHttp's ErrorResult (docs/protocol.md section 5), the error body of every protocol that answers in
/// ProtoHttp's own words: its own routes, REST routes, a refused WebSocket upgrade, and a protocol added beside them.
/// </summary>
internal static class ErrorResultWriter
{
    /// <summary>
    /// The failure's status and ErrorResult in <paramref name="errorType"/>, else in the format the request asks for
    /// (<see cref="ErrorFormat"/>; JSON for a 406, which no asked-for format can carry), with <c>Vary: Accept</c> and the
    /// failure's trailers as headers.
    /// </summary>
    public static Task WriteNegotiatedAsync(HttpContext context, CallFailure failure, WritableMediaType? errorType, MessageCodecs codecs)
    {
        var response = context.Response;
        response.Headers.Vary = "Accept";
        if (failure.Trailers is { } trailers)
        {
            HeaderMetadata.AddToResponse(trailers, response.Headers);
        }

        var type = failure.NoAcceptedFormat ? codecs.Canonical(CodecNames.Json) : errorType ?? ErrorFormat.Choose(context.Request, codecs);
        var text = failure.Text;
        if (ReferenceEquals(type.Codec, codecs.Find(CodecNames.Xml)))
        {
            // A detail or a quoted input may hold what XML cannot carry (a NUL, a bell); the error keeps the format the
            // client asked for, as every other answer does, with U+FFFD in those places.
            text = PrintableText.ReplaceUnwritableInXml(text);
        }

        return WriteAsync(response, failure with { Text = text }, type);
    }

    /// <summary>The failure's status and ErrorResult in <paramref name="type"/>, and nothing else.</summary>
    public static Task WriteAsync(HttpResponse response, CallFailure failure, WritableMediaType type) =>
        ResponseWriter.WriteAsync(response, failure.HttpStatus, new ErrorResult { Code = StatusMapping.ToCodeName(failure.Code), ErrorText = failure.Text }, type);
}
