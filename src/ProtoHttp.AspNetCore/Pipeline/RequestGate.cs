using Microsoft.AspNetCore.Http;

namespace ProtoHttp.AspNetCore.Pipeline;

/// <summary>
/// A claim the request alone decides, <see cref="RequestClaim.Own"/> or <see cref="RequestClaim.Never"/> (a WebSocket
/// upgrade, by its verb and headers). Routing splits a path's candidates on it as it builds its tree
/// (<see cref="RequestGateRoutePolicy"/>), so a request the gate does not let through never meets the gated endpoints:
/// the path's other endpoint is then the only candidate, and the call pays for no dispatch at all.
/// </summary>
internal abstract class RequestGate : RequestClaim
{
    /// <summary>Whether the request is the gated endpoint's; called during routing for every request at the path.</summary>
    public abstract bool Admits(HttpContext context);

    public sealed override int Rank(HttpContext context) => Admits(context) ? Own : Never;
}
