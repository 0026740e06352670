using Microsoft.AspNetCore.Http;
using Microsoft.AspNetCore.Routing;
using Microsoft.AspNetCore.Routing.Matching;

namespace ProtoHttp.AspNetCore.Pipeline;

/// <summary>
/// Leaves a <see cref="RouteFallback"/> out of each node of routing's tree where an endpoint covers it, as the tree is
/// built. There it could never be chosen, and as a second candidate it would cost every call the matcher's slow path (a
/// candidate set, the fallback's captures, the selector policies): a call at <c>/{file}.proto/{Method}</c> or at a
/// REST route meets its endpoint alone (docs/architecture.md, the protocol seam; docs/benchmarks.md, W3 and W8).
/// </summary>
internal sealed class RouteFallbackPolicy : MatcherPolicy, INodeBuilderPolicy
{
    // The one edge of a node this policy splits: every request takes it.
    private static readonly object Covered = new();

    // After routing's HTTP-method policy (whose order is -1000): a REST path's 405 is covered only in the branch of a verb
    // one of its routes takes.
    public override int Order => 1000;

    public bool AppliesToEndpoints(IReadOnlyList<Endpoint> endpoints) => endpoints.Any(e => IsCovered(e, endpoints));

    public IReadOnlyList<PolicyNodeEdge> GetEdges(IReadOnlyList<Endpoint> endpoints) =>
        [new PolicyNodeEdge(Covered, [.. endpoints.Where(e => !IsCovered(e, endpoints))])];

    public PolicyJumpTable BuildJumpTable(int exitDestination, IReadOnlyList<PolicyJumpTableEdge> edges) => new OneWay(edges[0].Destination);

    private static bool IsCovered(Endpoint endpoint, IReadOnlyList<Endpoint> node) =>
        endpoint.Metadata.GetMetadata<RouteFallback>() is { } fallback && node.Any(other => other != endpoint && fallback.IsCoveredBy(other));

    private sealed class OneWay(int destination) : PolicyJumpTable
    {
        public override int GetDestination(HttpContext httpContext) => destination;
    }
}
