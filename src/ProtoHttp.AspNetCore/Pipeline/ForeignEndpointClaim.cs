using Microsoft.AspNetCore.Http;

namespace ProtoHttp.AspNetCore.Pipeline;

/// <summary>
/// What a protocol knows of endpoints outside ProtoHttp at the paths it shares: an endpoint of another framework that
/// answers the protocol itself (grpc-dotnet's own gRPC-Web, turned on for its endpoint) outranks ProtoHttp's. Registered
/// in DI; <see cref="RequestClaimMatcherPolicy"/> asks each for every candidate without a <see cref="RequestClaim"/>.
/// </summary>
internal abstract class ForeignEndpointClaim
{
    /// <summary>
    /// How strongly <paramref name="endpoint"/> (one without a <see cref="RequestClaim"/>) takes the request:
    /// <see cref="RequestClaim.Unclaimed"/> where this protocol has nothing to say; above <see cref="RequestClaim.Own"/>
    /// where the endpoint answers the protocol itself. Called during routing, so it must be cheap.
    /// </summary>
    public abstract int Rank(HttpContext context, Endpoint endpoint);
}
