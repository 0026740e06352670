using Microsoft.AspNetCore.Http;
using ProtoHttp.AspNetCore.Pipeline;

namespace ProtoHttp.AspNetCore.Protocols.Native;

/// <summary>
/// A service's catch-all for unknown methods (<c>{file}.proto/{**method}</c>) stands behind its methods' native
/// endpoints: each takes every verb, claims nothing, and as a literal path outranks the catch-all (a name in another
/// case reaches the method's endpoint, which answers it as unknown itself).
/// </summary>
internal sealed class UnknownMethodFallback : RouteFallback
{
    public static UnknownMethodFallback Instance { get; } = new();

    public override bool IsCoveredBy(Endpoint endpoint) =>
        endpoint.Metadata.GetMetadata<ProtoHttpMethodMetadata>() is { Protocol: ProtocolNames.ProtoHttp };
}
