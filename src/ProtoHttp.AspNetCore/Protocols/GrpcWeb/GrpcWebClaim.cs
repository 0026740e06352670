using Microsoft.AspNetCore.Http;
using ProtoHttp.AspNetCore.Pipeline;

namespace ProtoHttp.AspNetCore.Protocols.GrpcWeb;

/// <summary>
/// Which requests at a procedure path (<c>/{package.Service}/{Method}</c>, shared with Connect and gRPC) are gRPC-Web's:
/// those in a gRPC-Web type, unless an endpoint of grpc-dotnet's there answers gRPC-Web itself (<see cref="GrpcDotnetWebClaim"/>).
/// docs/grpc-web.md says what each mapping gives.
/// </summary>
internal sealed class GrpcWebClaim : RequestClaim
{
    public static GrpcWebClaim Instance { get; } = new();

    private GrpcWebClaim()
    {
    }

    public override int Rank(HttpContext context) => GrpcWebMediaTypes.IsGrpcWeb(context.Request.ContentType) ? Own : Never;
}
