using Grpc.Core;
using Microsoft.AspNetCore.Http;
using Microsoft.Extensions.Logging;
using ProtoHttp.AspNetCore.Pipeline;

namespace ProtoHttp.AspNetCore.Internal;

/// <summary>
/// Endpoint metadata on every endpoint <c>MapProtoService</c> maps: answers a refusal made before the endpoint's handler
/// runs (authorization, rate limiting) as the handler answers a refusal of its own, in the endpoint's protocol, so a
/// caller gets an ErrorResult in the negotiated format, or Connect's error JSON on a Connect path, instead of an empty body.
/// </summary>
/// <param name="method">The method the endpoint calls (or the path it serves), for the log.</param>
/// <param name="logger">The service's logger.</param>
/// <param name="codecs">The service's codecs, which write the error.</param>
/// <param name="protocol">The protocol the endpoint answers.</param>
/// <param name="errorType">The error format the route's suffix forces; null where <c>Accept</c> and the request decide.</param>
internal sealed class EndpointErrorWriter(string method, ILogger logger, MessageCodecs codecs, CallProtocol protocol, WritableMediaType? errorType)
{
    /// <summary>The endpoint's writer, or <see langword="null"/> when the request did not reach a ProtoHttp endpoint.</summary>
    public static EndpointErrorWriter? Of(HttpContext context) => context.GetEndpoint()?.Metadata.GetMetadata<EndpointErrorWriter>();

    /// <summary>
    /// Writes the refusal unless the response has started or already carries a body of someone else's (a scheme or the
    /// app's own rejection handler wrote one); headers already set (<c>WWW-Authenticate</c>, <c>Retry-After</c>) stay.
    /// </summary>
    public Task WriteAsync(HttpContext context, int httpStatus, StatusCode code, string text)
    {
        var response = context.Response;
        if (response.HasStarted || response.ContentLength > 0)
        {
            return Task.CompletedTask;
        }

        ProtoHttpLog.CallRejected(logger, method, httpStatus, text);
        return CallErrors.AnswerAsync(context, new CallFailure(httpStatus, code, text), protocol, errorType, codecs);
    }
}
