using System.Net;
using Microsoft.AspNetCore.Builder;
using Microsoft.AspNetCore.HttpOverrides;
using ProtoHttp.FunctionalTests.Infrastructure;
using ProtoHttp.FunctionalTests.Protos.Middleware;

namespace ProtoHttp.FunctionalTests.Middleware;

/// <summary>
/// Behind a proxy that forwards <c>/api/…</c>: <c>UseForwardedHeaders</c> + <c>UsePathBase("/api")</c>. ProtoHttp's
/// routes and Connect's answer under the base, the service sees the client's address and host, and the explorer's
/// links keep the base.
/// </summary>
public sealed class PathBaseTests : IAsyncLifetime
{
    private const string Base = "/api";

    private MiddlewareApp _app = null!;

    public async Task InitializeAsync() => _app = await MiddlewareApp.StartAsync(pipeline: app =>
    {
        app.UseForwardedHeaders(new ForwardedHeadersOptions { ForwardedHeaders = ForwardedHeaders.All });
        app.UsePathBase(Base);
        app.UseRouting(); // after UsePathBase, so routes match the path without the base
    });

    public async Task DisposeAsync() => await _app.DisposeAsync();

    [Fact]
    public async Task AGetUnderTheBaseReachesTheServiceWithTheForwardedClient()
    {
        using var request = new HttpRequestMessage(HttpMethod.Get, $"{Base}{MiddlewareApp.Prefix}/Lookup?key=based&report_peer=true");
        request.Headers.Add("X-Forwarded-For", "203.0.113.9");
        request.Headers.Add("X-Forwarded-Host", "api.example.com");
        request.Headers.Add("X-Forwarded-Proto", "https");

        using var response = await _app.Client.SendAsync(request);

        Assert.Equal(HttpStatusCode.OK, response.StatusCode);
        var reply = await Wire.ReadAsync<LookupReply>(response);
        Assert.Equal("based", reply.Key);
        Assert.Contains("203.0.113.9", reply.Peer, StringComparison.Ordinal);
        Assert.Equal("api.example.com", reply.Host);
    }

    [Fact]
    public async Task AConnectCallUnderTheBaseIsAnswered()
    {
        using var request = Wire.Post($"{Base}{MiddlewareApp.ConnectPrefix}/Lookup", new LookupRequest { Key = "connect" }, "application/json");

        using var response = await _app.Client.SendAsync(request);

        Assert.Equal(HttpStatusCode.OK, response.StatusCode);
        Assert.Equal("connect", (await Wire.ReadAsync<LookupReply>(response)).Key);
    }

    [Fact]
    public async Task TheExplorerPageLinksUnderTheBase()
    {
        using var request = new HttpRequestMessage(HttpMethod.Get, $"{Base}{MiddlewareApp.Prefix}");
        request.Headers.Accept.ParseAdd("text/html");

        using var response = await _app.Client.SendAsync(request);
        var page = await response.Content.ReadAsStringAsync();

        Assert.Equal(HttpStatusCode.OK, response.StatusCode);
        Assert.Equal("text/html", response.Content.Headers.ContentType?.MediaType);
        Assert.Contains($"\"{Base}/protohttp/explorer.css\"", page, StringComparison.Ordinal);
        Assert.Contains($"{Base}{MiddlewareApp.Prefix}/Lookup", page, StringComparison.Ordinal);
    }

    [Fact]
    public async Task AnUnknownMethodUnderTheBaseIsProtoHttps404()
    {
        using var response = await _app.Client.GetAsync($"{Base}{MiddlewareApp.Prefix}/Nope");

        Assert.Equal(HttpStatusCode.NotFound, response.StatusCode);
        Assert.Equal("NOT_FOUND", (await Wire.ReadErrorAsync(response)).Code);
    }
}
