using Microsoft.AspNetCore.Http;
using Microsoft.AspNetCore.Routing;
using Microsoft.AspNetCore.Routing.Matching;

namespace ProtoHttp.AspNetCore.Pipeline;

/// <summary>
/// The one dispatcher among protocols at a shared path (docs/architecture.md, the protocol seam): an endpoint carrying a
/// <see cref="RequestClaim"/> stays a candidate only for the requests its claim takes, and then it is the only one; the
/// other candidates (the path's own protocol, a catch-all) answer everything else. A protocol that shares a path adds
/// its claim to its endpoints' metadata and nothing else.
/// </summary>
internal sealed class RequestClaimMatcherPolicy : MatcherPolicy, IEndpointSelectorPolicy
{
    // After the HTTP method policy (its candidates are valid for the verb) and before the policies of the procedure
    // paths (999, 1000), which never see a claim's endpoint.
    public override int Order => 998;

    public bool AppliesToEndpoints(IReadOnlyList<Endpoint> endpoints) => endpoints.Any(endpoint => ClaimOf(endpoint) is not null);

    public Task ApplyAsync(HttpContext httpContext, CandidateSet candidates)
    {
        var claimed = false;
        for (var i = 0; i < candidates.Count; i++)
        {
            if (candidates.IsValidCandidate(i) && ClaimOf(candidates[i].Endpoint) is { } claim)
            {
                var takes = claim.Claims(httpContext);
                claimed |= takes;
                candidates.SetValidity(i, takes);
            }
        }

        if (claimed)
        {
            for (var i = 0; i < candidates.Count; i++)
            {
                if (candidates.IsValidCandidate(i) && ClaimOf(candidates[i].Endpoint) is null)
                {
                    candidates.SetValidity(i, false);
                }
            }
        }

        return Task.CompletedTask;
    }

    private static RequestClaim? ClaimOf(Endpoint endpoint) => endpoint.Metadata.GetMetadata<RequestClaim>();
}
