using Microsoft.AspNetCore.Http;
using Microsoft.AspNetCore.Routing;
using Microsoft.AspNetCore.Routing.Matching;

namespace ProtoHttp.AspNetCore.Pipeline;

/// <summary>
/// Splits a path's candidates on each <see cref="RequestGate"/> among them when routing builds its tree: a request a gate
/// admits goes on with every candidate (<see cref="RequestClaimMatcherPolicy"/> then keeps the gated one), and a
/// request no gate admits goes on without the gated endpoints. Without it every call at ProtoHttp's own method paths
/// would meet the WebSocket endpoint there as a second candidate, and pay the matcher's slow path to rank it out.
/// </summary>
internal sealed class RequestGateRoutePolicy : MatcherPolicy, INodeBuilderPolicy
{
    // The edge of the requests no gate admits.
    private static readonly object NoGate = new();

    public override int Order => 0;

    public bool AppliesToEndpoints(IReadOnlyList<Endpoint> endpoints) => endpoints.Any(e => GateOf(e) is not null);

    public IReadOnlyList<PolicyNodeEdge> GetEdges(IReadOnlyList<Endpoint> endpoints)
    {
        var edges = endpoints.Select(GateOf).OfType<RequestGate>().Distinct()
            .Select(gate => new PolicyNodeEdge(gate, endpoints))
            .ToList();
        edges.Add(new PolicyNodeEdge(NoGate, [.. endpoints.Where(e => GateOf(e) is null)]));
        return edges;
    }

    public PolicyJumpTable BuildJumpTable(int exitDestination, IReadOnlyList<PolicyJumpTableEdge> edges)
    {
        var noGate = exitDestination;
        var gates = new List<(RequestGate, int)>();
        foreach (var edge in edges)
        {
            if (edge.State is RequestGate gate)
            {
                gates.Add((gate, edge.Destination));
            }
            else
            {
                noGate = edge.Destination;
            }
        }

        return new GateJumpTable([.. gates], noGate);
    }

    private static RequestGate? GateOf(Endpoint endpoint) => endpoint.Metadata.GetMetadata<RequestClaim>() as RequestGate;

    private sealed class GateJumpTable((RequestGate Gate, int Destination)[] gates, int noGate) : PolicyJumpTable
    {
        public override int GetDestination(HttpContext httpContext)
        {
            foreach (var (gate, destination) in gates)
            {
                if (gate.Admits(httpContext))
                {
                    return destination;
                }
            }

            return noGate;
        }
    }
}
