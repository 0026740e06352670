using Microsoft.AspNetCore.Cors.Infrastructure;
using Microsoft.AspNetCore.Http;
using Microsoft.Extensions.DependencyInjection;

namespace ProtoHttp.AspNetCore.Protocols.WebSockets;

/// <summary>
/// Whether an upgrade may come from its page (docs/protocol.md section 13): a browser sends the cookies of the server's
/// site with a WebSocket from any page, and no CORS preflight guards it, so a page of another site could call with the
/// user's credentials (cross-site WebSocket hijacking). Allowed: no <c>Origin</c> (not a browser), the server's own
/// origin, or an origin the endpoint's CORS policy allows, found as the CORS middleware finds it.
/// </summary>
internal static class WebSocketOrigin
{
    public static async ValueTask<bool> IsAllowedAsync(HttpContext context)
    {
        var request = context.Request;
        var origin = request.Headers.Origin.ToString();
        if (origin.Length == 0 || string.Equals(origin, $"{request.Scheme}://{request.Host}", StringComparison.OrdinalIgnoreCase))
        {
            return true;
        }

        var metadata = context.GetEndpoint()?.Metadata.GetMetadata<ICorsMetadata>();
        if (metadata is IDisableCorsAttribute)
        {
            return false;
        }

        var policy = (metadata as ICorsPolicyMetadata)?.Policy;
        if (policy is null && context.RequestServices.GetService<ICorsPolicyProvider>() is { } provider)
        {
            policy = await provider.GetPolicyAsync(context, (metadata as IEnableCorsAttribute)?.PolicyName);
        }

        return policy is not null && (policy.AllowAnyOrigin || policy.IsOriginAllowed(origin));
    }
}
