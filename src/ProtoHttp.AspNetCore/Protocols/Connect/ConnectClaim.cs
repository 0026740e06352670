using Microsoft.AspNetCore.Http;
using ProtoHttp.AspNetCore.Pipeline;

namespace ProtoHttp.AspNetCore.Protocols.Connect;

/// <summary>
/// Which requests at a procedure path (<c>/{package.Service}/{Method}</c>, shared with gRPC and gRPC-Web) are
/// Connect's: any but the gRPC family's <c>application/grpc…</c>. A gRPC request is refused here only where nothing
/// else at the path takes it (the app did not map the service with grpc-dotnet); a gRPC-Web one, before endpoints
/// without a claim, where no endpoint takes it as its own (a client-streaming method, which gRPC-Web cannot call):
/// the 415 then names Connect's types. Mapping order does not matter.
/// </summary>
internal sealed class ConnectClaim : RequestClaim
{
    private const string GrpcFamily = "application/grpc";

    public static ConnectClaim Instance { get; } = new();

    private ConnectClaim()
    {
    }

    public override int Rank(HttpContext context)
    {
        var contentType = context.Request.ContentType;
        if (contentType is null || !contentType.StartsWith(GrpcFamily, StringComparison.OrdinalIgnoreCase))
        {
            return Own;
        }

        return contentType.AsSpan(GrpcFamily.Length).StartsWith("-web", StringComparison.OrdinalIgnoreCase) ? Kin : RefusedIfAlone;
    }
}
