using Microsoft.AspNetCore.Http;
using Microsoft.AspNetCore.Http.Timeouts;
using Microsoft.Extensions.DependencyInjection;
using Microsoft.Extensions.Options;
using ProtoHttp.AspNetCore.Internal;

namespace ProtoHttp.AspNetCore.Invocation;

/// <summary>
/// The timeout ASP.NET Core's request-timeout middleware set on a call (<c>UseRequestTimeouts</c> with a default policy,
/// an endpoint's <c>WithRequestTimeout</c>), which docs/protocol.md section 11 makes a deadline. The middleware only
/// cancels <c>RequestAborted</c>, which looks like a client that went away and would end a unary call with nothing and a
/// stream without its last record; so the call takes the timeout over: the middleware's timer is turned off and the
/// same span becomes the call's own deadline, which answers 504 and ends streams with their last record. Streaming
/// methods are not subject to the host's default policy, as under grpc-dotnet: a stream lasts as long as its service
/// means it to, unless its endpoint names a timeout.
/// </summary>
internal static class HostRequestTimeout
{
    /// <summary>The host's timeout for this call, now the call's to keep; <see langword="null"/> when there is none.</summary>
    /// <param name="context">The call's context.</param>
    /// <param name="streaming">Whether the method streams, so that only a timeout its endpoint names applies.</param>
    /// <param name="expired">Whether the host's timeout passed already, before the call could take it over (it waited
    /// behind other middleware): then <c>RequestAborted</c> has fired, and for a deadline, not for a client that left.</param>
    public static TimeSpan? TakeOver(HttpContext context, bool streaming, out bool expired)
    {
        expired = false;
        if (context.Features.Find<IHttpRequestTimeoutFeature>() is not { } feature)
        {
            return null; // No middleware, or no timeout for this endpoint (none set, or DisableRequestTimeout).
        }

        var metadata = context.GetEndpoint()?.Metadata;
        var policy = metadata?.GetMetadata<RequestTimeoutPolicy>();
        var attribute = metadata?.GetMetadata<RequestTimeoutAttribute>();
        feature.DisableTimeout();
        expired = feature.RequestTimeoutToken.IsCancellationRequested;
        if (streaming && policy is null && attribute is null)
        {
            return null;
        }

        // The middleware's own choice, in its order: the endpoint's policy, its timeout or named policy, the default.
        var options = context.RequestServices.GetRequiredService<IOptionsMonitor<RequestTimeoutOptions>>().CurrentValue;
        var timeout = policy is not null ? policy.Timeout
            : attribute is not null ? attribute.Timeout ?? Named(options, attribute.PolicyName)
            : options.DefaultPolicy?.Timeout;
        return timeout == Timeout.InfiniteTimeSpan ? null : timeout;
    }

    private static TimeSpan? Named(RequestTimeoutOptions options, string? name) =>
        name is not null && options.Policies.TryGetValue(name, out var named) ? named.Timeout : null;
}
