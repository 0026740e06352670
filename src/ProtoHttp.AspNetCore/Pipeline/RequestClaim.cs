using Microsoft.AspNetCore.Http;

namespace ProtoHttp.AspNetCore.Pipeline;

/// <summary>
/// Endpoint metadata of a protocol that shares its path with another protocol's endpoint and takes only the requests it
/// recognises (a WebSocket upgrade at ProtoHttp's own <c>/{file}.proto/{Method}</c>). <see cref="RequestClaimMatcherPolicy"/>
/// asks each claim at a path, as connect-go's handler asks each protocol whether a request is its own: a claimed
/// request goes to the claiming endpoint, any other to the path's endpoints without a claim.
/// </summary>
internal abstract class RequestClaim
{
    /// <summary>Whether the request is this protocol's; called during routing, for every request at the path.</summary>
    public abstract bool Claims(HttpContext context);
}
