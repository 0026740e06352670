using Microsoft.AspNetCore.Http;
using Microsoft.AspNetCore.Routing;
using Microsoft.AspNetCore.Routing.Matching;

namespace ProtoHttp.AspNetCore.Protocols.Native;

/// <summary>
/// Keeps a service's unknown-method endpoint (the catch-all <c>{file}.proto/{**method}</c>) off the paths its methods
/// are mapped at. There the method's native endpoint takes every verb, claims nothing, and outranks the catch-all, so
/// the catch-all could never be chosen; as a second candidate it would only cost every call the matcher's slow path
/// (its capture, a candidate set, the selector policies): about 5% of a small call (docs/benchmarks.md, W3).
/// </summary>
internal sealed class UnknownMethodRoutePolicy : MatcherPolicy, INodeBuilderPolicy
{
    // The edge's key: a node this policy applies to has the one edge, taken by every request.
    private const string Known = "known method";

    public override int Order => 0;

    public bool AppliesToEndpoints(IReadOnlyList<Endpoint> endpoints)
    {
        var catchAll = false;
        var method = false;
        foreach (var endpoint in endpoints)
        {
            var marker = endpoint.Metadata.GetMetadata<NativeEndpointMarker>();
            catchAll |= marker == NativeEndpointMarker.UnknownMethod;
            method |= marker == NativeEndpointMarker.Method;
        }

        return catchAll && method;
    }

    public IReadOnlyList<PolicyNodeEdge> GetEdges(IReadOnlyList<Endpoint> endpoints) =>
        [new PolicyNodeEdge(Known, [.. endpoints.Where(e => e.Metadata.GetMetadata<NativeEndpointMarker>() != NativeEndpointMarker.UnknownMethod)])];

    public PolicyJumpTable BuildJumpTable(int exitDestination, IReadOnlyList<PolicyJumpTableEdge> edges) => new Always(edges[0].Destination);

    private sealed class Always(int destination) : PolicyJumpTable
    {
        public override int GetDestination(HttpContext httpContext) => destination;
    }
}
