using Microsoft.AspNetCore.Http;
using Microsoft.AspNetCore.Routing;
using Microsoft.AspNetCore.Routing.Matching;
using ProtoHttp.AspNetCore.Pipeline;
using ProtoHttp.AspNetCore.Protocols.Connect;
using ProtoHttp.AspNetCore.Protocols.GrpcWeb;

namespace ProtoHttp.Tests.Pipeline;

/// <summary>
/// The one dispatcher of shared paths: which candidates stay for a request, by the ranks the protocols' claims give.
/// Grpc.AspNetCore.Web's attribute is matched by name, so a class of that full name stands for it here.
/// </summary>
public class RequestClaimMatcherPolicyTests
{
    private static readonly Endpoint Connect = Make("Connect", ConnectClaim.Instance);
    private static readonly Endpoint GrpcWeb = Make("gRPC-Web", GrpcWebClaim.Instance);
    private static readonly Endpoint GrpcDotnet = Make("grpc-dotnet");
    private static readonly Endpoint GrpcDotnetWithGrpcWeb = Make("grpc-dotnet with gRPC-Web", new Grpc.AspNetCore.Web.EnableGrpcWebAttribute());

    [Theory]
    [InlineData("application/proto", "Connect")]
    [InlineData("application/json; charset=utf-8", "Connect")]
    [InlineData(null, "Connect")]
    [InlineData("application/grpc", "grpc-dotnet")]
    [InlineData("application/grpc+proto", "grpc-dotnet")]
    [InlineData("application/grpc-web", "gRPC-Web")]
    [InlineData("application/grpc-web-text+proto", "gRPC-Web")]
    public void EachTypeGoesToTheProtocolWhoseOwnItIs(string? contentType, string answeredBy) =>
        Assert.Equal([answeredBy], Remaining(contentType, Connect, GrpcWeb, GrpcDotnet));

    [Fact]
    public void GrpcWhereGrpcDotnetIsNotMappedIsConnectsToRefuse() =>
        Assert.Equal(["Connect"], Remaining("application/grpc", Connect, GrpcWeb));

    [Fact]
    public void GrpcWebAtAMethodGrpcWebCannotCallIsConnectsToRefuseBeforeAnUnclaimedEndpoint() =>
        Assert.Equal(["Connect"], Remaining("application/grpc-web", Connect, GrpcDotnet));

    [Fact]
    public void GrpcDotnetWithItsOwnGrpcWebTakesGrpcWebBeforeProtoHttp()
    {
        Assert.Equal(["grpc-dotnet with gRPC-Web"], Remaining("application/grpc-web", Connect, GrpcWeb, GrpcDotnetWithGrpcWeb));
        Assert.Equal(["grpc-dotnet with gRPC-Web"], Remaining("application/grpc-web", Connect, GrpcDotnetWithGrpcWeb));
        Assert.Equal(["Connect"], Remaining("application/proto", Connect, GrpcWeb, GrpcDotnetWithGrpcWeb));
    }

    [Fact]
    public void AClaimThatTakesNothingLeavesThePathsOwnEndpoint()
    {
        var native = Make("native");
        var upgrades = Make("upgrades", new HeaderClaim("Upgrade"));

        Assert.Equal(["native"], Remaining("application/json", native, upgrades));
        Assert.Equal(["upgrades"], Remaining("application/json", native, upgrades, request => request.Headers.Upgrade = "websocket"));
    }

    private static string[] Remaining(string? contentType, params Endpoint[] endpoints) => Remaining(contentType, endpoints, _ => { });

    private static string[] Remaining(string? contentType, Endpoint first, Endpoint second, Action<HttpRequest> setUp) =>
        Remaining(contentType, [first, second], setUp);

    private static string[] Remaining(string? contentType, Endpoint[] endpoints, Action<HttpRequest> setUp)
    {
        var policy = new RequestClaimMatcherPolicy([new GrpcDotnetWebClaim()]);
        Assert.True(policy.AppliesToEndpoints(endpoints));
        var context = new DefaultHttpContext();
        context.Request.Method = HttpMethods.Post;
        context.Request.ContentType = contentType;
        setUp(context.Request);
        var candidates = new CandidateSet(endpoints, [.. endpoints.Select(_ => new RouteValueDictionary())], [.. endpoints.Select(_ => 0)]);

        policy.ApplyAsync(context, candidates).GetAwaiter().GetResult();

        return [.. Enumerable.Range(0, candidates.Count).Where(candidates.IsValidCandidate).Select(i => candidates[i].Endpoint.DisplayName!)];
    }

    private static Endpoint Make(string name, params object[] metadata) => new(_ => Task.CompletedTask, new EndpointMetadataCollection(metadata), name);

    /// <summary>A claim of the requests that carry a header, ranked as a protocol of its own would.</summary>
    private sealed class HeaderClaim(string header) : RequestClaim
    {
        public override int Rank(HttpContext context) => context.Request.Headers.ContainsKey(header) ? Own : Never;
    }
}
