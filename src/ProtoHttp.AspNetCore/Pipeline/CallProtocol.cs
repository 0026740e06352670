using Grpc.Core;
using Microsoft.AspNetCore.Http;

namespace ProtoHttp.AspNetCore.Pipeline;

/// <summary>
/// A wire protocol the call lifecycle serves (docs/architecture.md), as connect-go's <c>protocolHandler</c>: which
/// endpoints it maps for a service and what each claims (verbs, content types, path), how a deadline arrives, how an
/// error is written before a call has an exchange, and the exchange of each call it accepts (<see cref="CallExchange"/>:
/// how its request is read, its answer written, how it ends and fails).
/// <see cref="ServerCallHandler{TService, TRequest, TResponse}"/> runs the same lifecycle for every protocol; nothing
/// generic knows which protocols exist. Registered in DI; one instance serves every service.
/// </summary>
internal abstract class CallProtocol
{
    /// <summary>
    /// The protocol's name (<see cref="ProtocolNames"/> for the built-in ones): what the endpoints'
    /// <see cref="ProtoHttpMethodMetadata.Protocol"/> says they answer, and what <see cref="ProtoHttpOptions.DisabledProtocols"/> turns off.
    /// </summary>
    public abstract string Name { get; }

    /// <summary>The <c>rpc.system</c> of the calls' telemetry.</summary>
    public abstract string TelemetrySystem { get; }

    /// <summary>How a request envelope's faults are answered (envelope streams are Connect's framing, shared by several protocols).</summary>
    public virtual EnvelopeRules Envelopes => EnvelopeRules.Plain;

    /// <summary>
    /// The request headers this protocol's browser clients send beyond the CORS-safelisted ones, which a page on another
    /// origin needs allowed (<c>AddCorsPolicy</c> allows every registered protocol's).
    /// </summary>
    public virtual IReadOnlyList<string> CorsRequestHeaders => [];

    /// <summary>The response headers this protocol's browser clients must be able to read from another origin (<c>AddCorsPolicy</c> exposes them).</summary>
    public virtual IReadOnlyList<string> CorsResponseHeaders => [];

    /// <summary>
    /// The status attribute of a call's telemetry, or <see langword="null"/> for none (the protocol's convention for
    /// success): by default OpenTelemetry's gRPC convention, the numeric status, success included.
    /// </summary>
    public virtual KeyValuePair<string, object?>? StatusTag(StatusCode code) => new("rpc.grpc.status_code", (int)code);

    /// <summary>Maps the protocol's endpoints for one service: a route per method it serves, and any of the service's own.</summary>
    public abstract void MapEndpoints(ServiceEndpoints service);

    /// <summary>
    /// Refuses a verb the route does not answer (405 with <c>Allow</c>): by default anything but the verbs of the route's
    /// <see cref="ProtoHttpMethodMetadata.Verbs"/> (<c>POST</c>, and <c>GET</c> where it allows GET). Checked once by the
    /// lifecycle, before <see cref="Accept"/>; a protocol whose routes take only the requests its
    /// <see cref="RequestClaim"/> claims (a WebSocket upgrade) has nothing left to check.
    /// </summary>
    /// <exception cref="Internal.CallRejectedException">The route does not answer the request's verb.</exception>
    public virtual void CheckVerb(HttpRequest request, CallRoute route)
    {
        var verbs = route.Metadata.Verbs;
        // By index: a foreach over the list's interface would allocate an enumerator on every call.
        for (var i = 0; i < verbs.Count; i++)
        {
            if (HttpMethods.Equals(verbs[i], request.Method))
            {
                return;
            }
        }

        throw Internal.CallRejectedException.MethodNotAllowed(request.Method, string.Join(", ", verbs));
    }

    /// <summary>
    /// Checks that the request is a call this endpoint takes (transport, media types, protocol headers; the verb is
    /// checked already) and returns the call's exchange: how it is read and answered, ended and failed
    /// (<see cref="CallExchange"/>), from which <see cref="ProtoHttpServerCallContext.ErrorType"/> follows. Runs before
    /// the deadline starts. The lifecycle logs the format the exchange chose.
    /// </summary>
    /// <exception cref="Internal.CallRejectedException">The request is not such a call (406, 415, 505...).</exception>
    public abstract CallExchange Accept(ProtoHttpServerCallContext call);

    /// <summary>The timeout the request asks for, in the protocol's own header, or <see langword="null"/> for none.</summary>
    /// <exception cref="Internal.CallRejectedException">The header is malformed (400).</exception>
    public abstract TimeSpan? ReadTimeout(HttpRequest request);

    /// <summary>
    /// Answers a failure with a status and a body, before anything else went out; the hint header and the escaping of
    /// the text are done. <paramref name="errorType"/>: the format chosen so far (null where the request decides).
    /// Also answers refusals made before the endpoint ran (authorization, rate limiting), and before a call had an
    /// exchange.
    /// </summary>
    public abstract Task WriteErrorAsync(HttpContext context, CallFailure failure, WritableMediaType? errorType, MessageCodecs codecs);
}
