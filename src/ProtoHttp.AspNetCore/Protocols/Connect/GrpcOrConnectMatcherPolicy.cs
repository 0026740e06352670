using Microsoft.AspNetCore.Http;
using Microsoft.AspNetCore.Routing;
using Microsoft.AspNetCore.Routing.Matching;

namespace ProtoHttp.AspNetCore.Protocols.Connect;

/// <summary>
/// gRPC and Connect share their paths (<c>/{package.Service}/{Method}</c>), so a service mapped with both
/// <c>MapGrpcService&lt;T&gt;()</c> and <c>MapProtoService&lt;T&gt;()</c> has two endpoints on one route, which routing
/// would call ambiguous. The request's <c>Content-Type</c> settles it: <c>application/grpc…</c> (gRPC and gRPC-Web)
/// goes to grpc-dotnet, anything else to ProtoHttp's Connect endpoint. Mapping order does not matter.
/// </summary>
internal sealed class GrpcOrConnectMatcherPolicy : MatcherPolicy, IEndpointSelectorPolicy
{
    // After the HTTP method policy, so a GET has already left grpc-dotnet's POST-only endpoints out.
    public override int Order => 1000;

    public bool AppliesToEndpoints(IReadOnlyList<Endpoint> endpoints) =>
        endpoints.Any(endpoint => endpoint.Metadata.GetMetadata<ConnectEndpointMetadata>() is not null);

    public Task ApplyAsync(HttpContext httpContext, CandidateSet candidates)
    {
        int connect = -1, other = -1;
        for (var i = 0; i < candidates.Count; i++)
        {
            if (!candidates.IsValidCandidate(i))
            {
                continue;
            }

            if (candidates[i].Endpoint.Metadata.GetMetadata<ConnectEndpointMetadata>() is not null)
            {
                connect = i;
            }
            else
            {
                other = i;
            }
        }

        if (connect < 0 || other < 0)
        {
            return Task.CompletedTask; // Only one of them is mapped: nothing to settle.
        }

        var grpc = httpContext.Request.ContentType?.StartsWith("application/grpc", StringComparison.OrdinalIgnoreCase) ?? false;
        for (var i = 0; i < candidates.Count; i++)
        {
            var isConnect = candidates[i].Endpoint.Metadata.GetMetadata<ConnectEndpointMetadata>() is not null;
            if (isConnect == grpc)
            {
                candidates.SetValidity(i, false);
            }
        }

        return Task.CompletedTask;
    }
}
