using Microsoft.AspNetCore.Http;
using Microsoft.AspNetCore.Routing;
using Microsoft.AspNetCore.Routing.Matching;

namespace ProtoHttp.AspNetCore.Protocols.GrpcWeb;

/// <summary>
/// gRPC-Web shares its paths (<c>/{package.Service}/{Method}</c>) with Connect, and with grpc-dotnet when the app maps
/// the service with <c>MapGrpcService&lt;T&gt;()</c> too. The request's <c>Content-Type</c> settles it: a gRPC-Web type
/// goes to ProtoHttp's gRPC-Web endpoint, unless the app turned grpc-dotnet's own gRPC-Web on for that endpoint
/// (<c>EnableGrpcWeb()</c> or <c>[EnableGrpcWeb]</c>), which then answers; at a method gRPC-Web cannot call (client and
/// bidirectional streams) it goes to ProtoHttp's Connect endpoint there, which refuses its type with 415, rather than to
/// grpc-dotnet's catch-all for unimplemented services. Any other type never reaches gRPC-Web and is left to Connect's
/// matcher policy, which runs next. docs/grpc-web.md says what each mapping gives.
/// </summary>
internal sealed class GrpcWebMatcherPolicy : MatcherPolicy, IEndpointSelectorPolicy
{
    // grpc-dotnet's gRPC-Web switches, known by name: ProtoHttp does not depend on Grpc.AspNetCore.Web.
    private const string EnableAttribute = "Grpc.AspNetCore.Web.EnableGrpcWebAttribute";
    private const string DisableAttribute = "Grpc.AspNetCore.Web.DisableGrpcWebAttribute";

    // Just before the Connect policy, which then sees only what is left.
    public override int Order => 999;

    public bool AppliesToEndpoints(IReadOnlyList<Endpoint> endpoints) => endpoints.Any(IsOurs);

    public Task ApplyAsync(HttpContext httpContext, CandidateSet candidates)
    {
        var grpcWeb = GrpcWebMediaTypes.IsGrpcWeb(httpContext.Request.ContentType);
        bool grpcDotnetAnswers = false, oursAnswers = false;
        if (grpcWeb)
        {
            for (var i = 0; i < candidates.Count; i++)
            {
                var endpoint = candidates[i].Endpoint;
                grpcDotnetAnswers |= candidates.IsValidCandidate(i) && !IsOurs(endpoint) && EnablesGrpcWeb(endpoint);
                oursAnswers |= candidates.IsValidCandidate(i) && IsGrpcWeb(endpoint);
            }
        }

        for (var i = 0; i < candidates.Count; i++)
        {
            if (!candidates.IsValidCandidate(i))
            {
                continue;
            }

            var endpoint = candidates[i].Endpoint;
            var keep = !grpcWeb
                ? !IsGrpcWeb(endpoint)
                : IsOurs(endpoint)
                    ? !grpcDotnetAnswers && IsGrpcWeb(endpoint) == oursAnswers
                    : EnablesGrpcWeb(endpoint);
            if (!keep)
            {
                candidates.SetValidity(i, false);
            }
        }

        return Task.CompletedTask;
    }

    private static bool IsGrpcWeb(Endpoint endpoint) => endpoint.Metadata.GetMetadata<GrpcWebEndpointMetadata>() is not null;

    // ProtoHttp's endpoints, whatever their protocol: on these paths gRPC-Web's and Connect's.
    private static bool IsOurs(Endpoint endpoint) => endpoint.Metadata.GetMetadata<ProtoHttpMethodMetadata>() is not null;

    /// <summary>Whether the endpoint's last word on grpc-dotnet's gRPC-Web, as its middleware reads it, is "enabled".</summary>
    private static bool EnablesGrpcWeb(Endpoint endpoint)
    {
        var metadata = endpoint.Metadata;
        for (var i = metadata.Count - 1; i >= 0; i--)
        {
            switch (metadata[i].GetType().FullName)
            {
                case EnableAttribute:
                    return true;
                case DisableAttribute:
                    return false;
            }
        }

        return false;
    }
}
