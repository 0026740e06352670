using Microsoft.Extensions.Logging;
using ProtoHttp.AspNetCore.Pipeline;

namespace ProtoHttp.AspNetCore.Invocation;

/// <summary>What every call handler of one service shares: the <see cref="CallSettings"/>, its service activator and interceptors.</summary>
internal sealed class ServiceCallSettings<TService>(
    ProtoHttpOptions options,
    bool detailedErrors,
    bool restrictGet,
    MessageCodecs codecs,
    long inPlaceBodyLimit,
    ILogger logger,
    ServiceActivator<TService> activator,
    IReadOnlyList<InterceptorActivator> interceptors)
    : CallSettings(options, detailedErrors, restrictGet, codecs, inPlaceBodyLimit, logger)
    where TService : class
{
    public ServiceActivator<TService> Activator { get; } = activator;

    /// <summary>The interceptors of every call, global ones first, then the service's own.</summary>
    public IReadOnlyList<InterceptorActivator> Interceptors { get; } = interceptors;
}
