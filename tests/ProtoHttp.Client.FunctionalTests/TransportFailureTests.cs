using System.Net;
using System.Net.Sockets;
using Grpc.Core;
using ProtoHttp.Client.FunctionalTests.Infrastructure;
using ProtoService;

namespace ProtoHttp.Client.FunctionalTests;

/// <summary>Answers that are not ProtoHttp's, and no answer at all, still end in an <see cref="RpcException"/> that says what happened.</summary>
public sealed class TransportFailureTests(ServerFixture server) : IClassFixture<ServerFixture>
{
    [Fact]
    public async Task AProxysHtml502IsUnavailableAndSaysWhatCameBack()
    {
        using var clients = new ClientFactory(new Uri(server.Address, "/proxy"));

        var ex = await Assert.ThrowsAsync<RpcException>(() => clients.Search.SearchAsync(new SearchRequest { Query = "chai" }).ResponseAsync);

        Assert.Equal(StatusCode.Unavailable, ex.StatusCode);
        Assert.Equal(
            "The server answered 502 Bad Gateway with Content-Type 'text/html' and the body " +
            "'<html> <head><title>502 Bad Gateway</title></head> <body><center><h1>502 Bad Gateway</h1></center></body> </html>', not an ErrorResult.",
            ex.Status.Detail);
    }

    [Fact]
    public async Task ARefusedConnectionIsUnavailable()
    {
        var port = ClosedPort();
        using var clients = new ClientFactory(new Uri($"http://127.0.0.1:{port}"));

        var ex = await Assert.ThrowsAsync<RpcException>(() => clients.Search.SearchAsync(new SearchRequest { Query = "chai" }).ResponseAsync);

        Assert.Equal(StatusCode.Unavailable, ex.StatusCode);
        Assert.StartsWith($"http://127.0.0.1:{port}/ProtoService.proto/Search could not be reached: Connection refused", ex.Status.Detail, StringComparison.Ordinal);
    }

    [Fact]
    public async Task CallsWorkOverHttp2()
    {
        using var http = new HttpClient { DefaultRequestVersion = HttpVersion.Version20, DefaultVersionPolicy = HttpVersionPolicy.RequestVersionExact };
        var client = new ProtoService.SearchService.SearchServiceClient(new ProtoHttpCallInvoker(http, new ProtoHttpClientOptions { Address = server.Http2Address }));

        var response = await client.SearchAsync(new SearchRequest { Query = "chai" });

        Assert.NotEmpty(response.Result);
    }

    /// <summary>A loopback port that was just free and is now closed: connecting to it is refused.</summary>
    private static int ClosedPort()
    {
        using var listener = new TcpListener(IPAddress.Loopback, 0);
        listener.Start();
        var port = ((IPEndPoint)listener.LocalEndpoint).Port;
        listener.Stop();
        return port;
    }
}
