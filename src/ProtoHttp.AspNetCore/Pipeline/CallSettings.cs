using Microsoft.Extensions.Logging;
using ProtoHttp.AspNetCore.Negotiation;

namespace ProtoHttp.AspNetCore.Pipeline;

/// <summary>
/// What every call of one service shares whatever its protocol and method kind: the options, codecs, limits and logger.
/// Protocols read only these; the service's activator and interceptors are in <see cref="Invocation.ServiceCallSettings{TService}"/>.
/// </summary>
internal class CallSettings(ProtoHttpOptions options, bool detailedErrors, bool restrictGet, MessageCodecs codecs, long inPlaceBodyLimit, ILogger logger)
{
    public ProtoHttpOptions Options { get; } = options;

    /// <summary>Whether a service exception's text reaches the client: the option, else on in Development only.</summary>
    public bool DetailedErrors { get; } = detailedErrors;

    /// <summary>
    /// Whether GET reaches only the methods marked NO_SIDE_EFFECTS: the option, else on when the app uses cookie
    /// authentication or antiforgery (<see cref="Internal.AmbientCredentials"/>).
    /// </summary>
    public bool RestrictGet { get; } = restrictGet;

    public MessageCodecs Codecs { get; } = codecs;

    /// <summary>The stream types the service's codecs allow, built once from <see cref="Codecs"/>.</summary>
    public StreamAcceptNegotiator Streams { get; } = new(codecs);

    /// <summary>The largest request body parsed in place in the request pipe (<see cref="Internal.InPlaceBodyLimit"/>).</summary>
    public long InPlaceBodyLimit { get; } = inPlaceBodyLimit;

    public ILogger Logger { get; } = logger;
}
