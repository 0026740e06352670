using Microsoft.AspNetCore.Http;
using ProtoHttp.AspNetCore.Pipeline;

namespace ProtoHttp.AspNetCore.Protocols.GrpcWeb;

/// <summary>
/// grpc-dotnet answers gRPC-Web itself where the app turned its gRPC-Web on for the endpoint (<c>EnableGrpcWeb()</c>
/// or <c>[EnableGrpcWeb]</c>): a gRPC-Web request at such an endpoint's path goes there, before ProtoHttp's gRPC-Web
/// endpoint and Connect's refusal. <c>UseGrpcWeb(DefaultEnabled = true)</c> alone leaves gRPC-Web to ProtoHttp.
/// docs/grpc-web.md says what each mapping gives.
/// </summary>
internal sealed class GrpcDotnetWebClaim : ForeignEndpointClaim
{
    // grpc-dotnet's gRPC-Web switches, known by name: ProtoHttp does not depend on Grpc.AspNetCore.Web.
    private const string EnableAttribute = "Grpc.AspNetCore.Web.EnableGrpcWebAttribute";
    private const string DisableAttribute = "Grpc.AspNetCore.Web.DisableGrpcWebAttribute";

    public override int Rank(HttpContext context, Endpoint endpoint) =>
        GrpcWebMediaTypes.IsGrpcWeb(context.Request.ContentType) && endpoint.Metadata.GetMetadata<ProtoHttpMethodMetadata>() is null && EnablesGrpcWeb(endpoint)
            ? RequestClaim.Own + 1
            : RequestClaim.Unclaimed;

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
