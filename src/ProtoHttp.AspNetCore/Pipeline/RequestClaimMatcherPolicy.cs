using Microsoft.AspNetCore.Http;
using Microsoft.AspNetCore.Routing;
using Microsoft.AspNetCore.Routing.Matching;

namespace ProtoHttp.AspNetCore.Pipeline;

/// <summary>
/// The one dispatcher among protocols at a shared path (docs/architecture.md, the protocol seam), as connect-go's
/// handler asks each protocol whether a request is its own: each candidate is ranked (its <see cref="RequestClaim"/>,
/// or for one without a claim <see cref="RequestClaim.Unclaimed"/> unless a <see cref="ForeignEndpointClaim"/> ranks
/// it higher), and only the candidates of the highest rank stay, never one ranked <see cref="RequestClaim.Never"/>.
/// A protocol that shares a path adds its claim to its endpoints' metadata; the policy knows no protocol.
/// </summary>
internal sealed class RequestClaimMatcherPolicy(IEnumerable<ForeignEndpointClaim> foreign) : MatcherPolicy, IEndpointSelectorPolicy
{
    // A path holds a handful of candidates; a longer list is ranked on the heap.
    private const int StackRanks = 16;

    private readonly ForeignEndpointClaim[] _foreign = [.. foreign];

    // After the HTTP method policy, so its candidates are valid for the verb (a GET has left grpc-dotnet's POST-only
    // endpoints out).
    public override int Order => 998;

    public bool AppliesToEndpoints(IReadOnlyList<Endpoint> endpoints)
    {
        foreach (var endpoint in endpoints)
        {
            if (ClaimOf(endpoint) is not null)
            {
                return true;
            }
        }

        return false;
    }

    public Task ApplyAsync(HttpContext httpContext, CandidateSet candidates)
    {
        var count = candidates.Count;
        Span<int> ranks = count <= StackRanks ? stackalloc int[StackRanks] : new int[count];
        var highest = RequestClaim.Never;
        var anyNever = false;
        for (var i = 0; i < count; i++)
        {
            if (!candidates.IsValidCandidate(i))
            {
                continue;
            }

            var rank = Rank(httpContext, candidates[i].Endpoint);
            ranks[i] = rank;
            highest = Math.Max(highest, rank);
            anyNever |= rank == RequestClaim.Never;
        }

        // The common case (a call on ProtoHttp's own path that no claim takes) leaves every candidate as it was.
        if (highest == RequestClaim.Unclaimed && !anyNever)
        {
            return Task.CompletedTask;
        }

        for (var i = 0; i < count; i++)
        {
            if (candidates.IsValidCandidate(i) && (ranks[i] < highest || ranks[i] == RequestClaim.Never))
            {
                candidates.SetValidity(i, false);
            }
        }

        return Task.CompletedTask;
    }

    private int Rank(HttpContext context, Endpoint endpoint)
    {
        if (ClaimOf(endpoint) is { } claim)
        {
            return claim.Rank(context);
        }

        var rank = RequestClaim.Unclaimed;
        foreach (var other in _foreign)
        {
            rank = Math.Max(rank, other.Rank(context, endpoint));
        }

        return rank;
    }

    private static RequestClaim? ClaimOf(Endpoint endpoint) => endpoint.Metadata.GetMetadata<RequestClaim>();
}
