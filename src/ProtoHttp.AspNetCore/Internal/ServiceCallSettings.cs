using Microsoft.Extensions.Logging;
using ProtoHttp.Streaming;

namespace ProtoHttp.AspNetCore.Internal;

/// <summary>What every call handler of one service shares: its options, codecs, logger, service activator and interceptors.</summary>
internal sealed class ServiceCallSettings<TService>(
    ProtoHttpOptions options,
    bool detailedErrors,
    bool restrictGet,
    MessageCodecs codecs,
    long inPlaceBodyLimit,
    ILogger logger,
    ServiceActivator<TService> activator,
    IReadOnlyList<InterceptorActivator> interceptors)
    where TService : class
{
    public ProtoHttpOptions Options { get; } = options;

    /// <summary>Whether a service exception's text reaches the client: the option, else on in Development only.</summary>
    public bool DetailedErrors { get; } = detailedErrors;

    /// <summary>
    /// Whether GET reaches only the methods marked NO_SIDE_EFFECTS: the option, else on when the app uses cookie
    /// authentication or antiforgery (<see cref="AmbientCredentials"/>).
    /// </summary>
    public bool RestrictGet { get; } = restrictGet;

    public MessageCodecs Codecs { get; } = codecs;

    /// <summary>The stream types the service's codecs allow, built once from <see cref="Codecs"/>.</summary>
    public StreamAcceptNegotiator Streams { get; } = new(codecs);

    /// <summary>The largest request body parsed in place in the request pipe (<see cref="InPlaceBodyLimit"/>).</summary>
    public long InPlaceBodyLimit { get; } = inPlaceBodyLimit;

    public ILogger Logger { get; } = logger;

    public ServiceActivator<TService> Activator { get; } = activator;

    /// <summary>The interceptors of every call, global ones first, then the service's own.</summary>
    public IReadOnlyList<InterceptorActivator> Interceptors { get; } = interceptors;
}
