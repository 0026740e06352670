using Microsoft.AspNetCore.Http;

namespace ProtoHttp.AspNetCore.Pipeline;

/// <summary>
/// Endpoint metadata of a protocol that shares its path with other endpoints (Connect, gRPC-Web and grpc-dotnet at
/// <c>/{package.Service}/{Method}</c>; a WebSocket upgrade at ProtoHttp's own <c>/{file}.proto/{Method}</c>): how
/// strongly a request is this endpoint's, as connect-go's handler asks each protocol <c>CanHandlePayload</c>.
/// <see cref="RequestClaimMatcherPolicy"/>, the one dispatcher, asks each claim at the path and keeps the endpoints that
/// take the request most strongly; an endpoint without a claim ranks <see cref="Unclaimed"/>, unless a
/// <see cref="ForeignEndpointClaim"/> ranks it. Protocols never name each other: each ranks only what it reads.
/// </summary>
internal abstract class RequestClaim
{
    /// <summary>Not this endpoint's: it never answers the request.</summary>
    public const int Never = 0;

    /// <summary>
    /// Another protocol's that this endpoint refuses in its own words, when nothing else at the path takes the request
    /// (Connect's 415 for gRPC where the app did not map the service with grpc-dotnet).
    /// </summary>
    public const int RefusedIfAlone = 1;

    /// <summary>The rank of an endpoint without a claim: the path's own protocol, another framework's endpoint, a catch-all.</summary>
    public const int Unclaimed = 2;

    /// <summary>
    /// A protocol of the same family this endpoint refuses in its own words before any endpoint without a claim does
    /// (Connect's 415 for gRPC-Web at a method gRPC-Web cannot call), unless an endpoint says <see cref="Own"/>.
    /// </summary>
    public const int Kin = 3;

    /// <summary>The request is this endpoint's.</summary>
    public const int Own = 4;

    /// <summary>How strongly the request is this endpoint's; called during routing, for every request at the path, so it must be cheap.</summary>
    public abstract int Rank(HttpContext context);
}
