using System.Net;
using Grpc.AspNetCore.Server;
using Microsoft.AspNetCore.Builder;
using Microsoft.AspNetCore.Http;
using Microsoft.AspNetCore.Routing;
using Microsoft.AspNetCore.Routing.Matching;
using Microsoft.Extensions.DependencyInjection;
using Microsoft.Extensions.DependencyInjection.Extensions;
using ProtoHttp.AspNetCore;
using ProtoHttp.FunctionalTests.Infrastructure;
using ProtoHttp.FunctionalTests.Services;
using ProtoHttp.FunctionalTests.WebSockets;
using ProtoService;

namespace ProtoHttp.FunctionalTests;

/// <summary>
/// What routing hands the endpoint selector at ProtoHttp's own method paths (docs/architecture.md, the protocol seam):
/// a call meets its method's native endpoint alone, neither the WebSocket endpoint at the same path (a request that is
/// no upgrade never meets it) nor the service's catch-all for unknown methods (the method's endpoint always outranks
/// it); a REST call meets its route, not the path's endpoint for other verbs. A second candidate would cost every call the matcher's slow path (docs/benchmarks.md, W3). A policy of the
/// test's own writes the candidates routing hands the selector into a response header.
/// </summary>
public sealed class RouteCandidateTests : IAsyncLifetime
{
    private const string Search = "/ProtoService.proto/Search";
    private const string CandidatesHeader = "X-Route-Candidates";

    private SampleServer _server = null!;

    public async Task InitializeAsync() => _server = await SampleServer.StartAsync(configure: builder =>
    {
        builder.Services.TryAddEnumerable(ServiceDescriptor.Singleton<MatcherPolicy, CandidateRecorder>());
        // The sample also serves grpc-dotnet, whose catch-all for unknown services meets every two-segment path unless
        // told to let unknown services pass; that candidate is grpc-dotnet's, not ProtoHttp's.
        builder.Services.Configure<GrpcServiceOptions>(grpc => grpc.IgnoreUnknownServices = true);
    }, map: app => app.MapProtoService<LibraryService>());

    public async Task DisposeAsync() => await _server.DisposeAsync();

    [Fact]
    public async Task AProtobufPostMeetsItsMethodsNativeEndpointAlone()
    {
        using var response = await _server.Client.SendAsync(Wire.Post(Search, new SearchRequest { Query = "chai" }, "application/x-protobuf"));

        Assert.Equal(HttpStatusCode.OK, response.StatusCode);
        Assert.Equal(["ProtoHttp " + Search], Candidates(response.Headers));
    }

    [Fact]
    public async Task AGetInTheAddressBarMeetsItsMethodsNativeEndpointAlone()
    {
        using var response = await _server.Client.GetAsync(Search + "?query=chai");

        Assert.Equal(HttpStatusCode.OK, response.StatusCode);
        Assert.Equal(["ProtoHttp " + Search], Candidates(response.Headers));
    }

    [Theory]
    [InlineData(false)]
    [InlineData(true)]
    public async Task AWebSocketUpgradeMeetsTheWebSocketEndpointBesideTheNativeOne(bool http2)
    {
        await using var call = await WebSocketCall.OpenAsync(http2 ? _server.Http2Address : _server.Http1Address, Search, http2);

        var candidates = call.Socket.HttpResponseHeaders![CandidatesHeader].Single()!.Split(", ");
        Assert.Equal(["ProtoHttp " + Search, "ProtoHttp WebSocket " + Search], candidates.Order(StringComparer.Ordinal));
    }

    [Fact]
    public async Task AnUnknownMethodStillMeetsTheServicesCatchAllAndIsAnsweredWithAnErrorResult()
    {
        using var response = await _server.Client.SendAsync(Wire.Post("/ProtoService.proto/Nope", new SearchRequest(), "application/json"));

        Assert.Equal(HttpStatusCode.NotFound, response.StatusCode);
        Assert.Contains("Method 'Nope' not found.", await response.Content.ReadAsStringAsync(), StringComparison.Ordinal);
        Assert.Equal(["ProtoHttp ProtoService.SearchService unknown method"], Candidates(response.Headers));
    }

    [Fact]
    public async Task AMethodNameInAnotherCaseIsAnsweredByTheMethodsEndpointAsUnknown()
    {
        using var response = await _server.Client.SendAsync(Wire.Post("/ProtoService.proto/search", new SearchRequest(), "application/json"));

        Assert.Equal(HttpStatusCode.NotFound, response.StatusCode);
        Assert.Contains("Method 'search' not found.", await response.Content.ReadAsStringAsync(), StringComparison.Ordinal);
        Assert.Equal(["ProtoHttp " + Search], Candidates(response.Headers));
    }

    [Fact]
    public async Task ARestCallMeetsItsRouteAloneNotThePathsEndpointForOtherVerbs()
    {
        using var response = await _server.Client.GetAsync("/v1/shelves/s1/books");

        Assert.Equal(HttpStatusCode.OK, response.StatusCode);
        Assert.Equal(["REST GET /v1/shelves/{shelf}/books"], Candidates(response.Headers));
    }

    [Fact]
    public async Task AnotherVerbAtARestPathStillMeetsTheEndpointThatAnswers405()
    {
        using var response = await _server.Client.PutAsync("/v1/shelves/s1/books", new StringContent("{}"));

        Assert.Equal(HttpStatusCode.MethodNotAllowed, response.StatusCode);
        Assert.Equal(["GET", "POST"], response.Content.Headers.Allow.Order(StringComparer.Ordinal));
        Assert.Equal("UNIMPLEMENTED", (await Wire.ReadErrorAsync(response)).Code);
        Assert.Equal(["REST /v1/shelves/{shelf}/books other verbs"], Candidates(response.Headers));
    }

    private static string[] Candidates(System.Net.Http.Headers.HttpResponseHeaders headers) =>
        headers.TryGetValues(CandidatesHeader, out var values) ? values.Single().Split(", ") : [];

    /// <summary>Applies at every path and writes the display names of every candidate routing handed the selector, ranked out or not.</summary>
    private sealed class CandidateRecorder : MatcherPolicy, IEndpointSelectorPolicy
    {
        public override int Order => int.MaxValue;

        public bool AppliesToEndpoints(IReadOnlyList<Endpoint> endpoints) => true;

        public Task ApplyAsync(HttpContext httpContext, CandidateSet candidates)
        {
            var names = new List<string>();
            for (var i = 0; i < candidates.Count; i++)
            {
                names.Add(candidates[i].Endpoint.DisplayName ?? "(unnamed)");
            }

            httpContext.Response.Headers[CandidatesHeader] = string.Join(", ", names);
            return Task.CompletedTask;
        }
    }
}
