using Microsoft.AspNetCore.Builder;
using Microsoft.AspNetCore.Hosting.Server;
using Microsoft.AspNetCore.Hosting.Server.Features;
using Microsoft.AspNetCore.Http;
using Microsoft.AspNetCore.Http.Features;
using Microsoft.Extensions.DependencyInjection;
using Microsoft.Extensions.Logging;
using ProtoHttp.Client.FunctionalTests.Services;
using SearchService;

namespace ProtoHttp.Client.FunctionalTests.Infrastructure;

/// <summary>
/// The real sample server on Kestrel at a loopback port chosen by the OS, in the Production environment, with the
/// client test service mapped beside the sample's and a stand-in for a proxy that answers an HTML 502.
/// </summary>
public class ServerFixture : IAsyncLifetime
{
    /// <summary>The page the stand-in proxy answers with.</summary>
    public const string ProxyPage = "<html>\r\n<head><title>502 Bad Gateway</title></head>\r\n<body><center><h1>502 Bad Gateway</h1></center></body>\r\n</html>";

    private WebApplication? _app;

    /// <summary>The server's HTTP/1.1 address, e.g. <c>http://127.0.0.1:41234</c>.</summary>
    public Uri Address { get; private set; } = null!;

    /// <summary>The server's h2c address (HTTP/2 with prior knowledge), where the sample also serves gRPC.</summary>
    public Uri Http2Address { get; private set; } = null!;

    public IServiceProvider Services => _app!.Services;

    public CallProbe Probe => Services.GetRequiredService<CallProbe>();

    public async Task InitializeAsync()
    {
        string[] args =
        [
            "--environment=Production",
            "--Kestrel:Endpoints:Http:Url=http://127.0.0.1:0",
            "--Kestrel:Endpoints:Http:Protocols=Http1",
            "--Kestrel:Endpoints:Grpc:Url=http://127.0.0.1:0",
            "--Kestrel:Endpoints:Grpc:Protocols=Http2",
            // Price ticks every 50 ms instead of every second, so the feed's tests wait little.
            "--PriceTicker:Interval=00:00:00.050",
        ];
        var app = SearchServiceApp.Build(args, builder =>
        {
            builder.Logging.ClearProviders();
            builder.Services.AddSingleton<CallProbe>();
            Configure(builder);
        });
        MapTestService(app);
        app.MapPost("/proxy/{**path}", async context =>
        {
            context.Response.StatusCode = StatusCodes.Status502BadGateway;
            context.Response.ContentType = "text/html";
            await context.Response.WriteAsync(ProxyPage);
        });

        await app.StartAsync();
        _app = app;
        var addresses = app.Services.GetRequiredService<IServer>().Features.GetRequiredFeature<IServerAddressesFeature>().Addresses;
        (Address, Http2Address) = await SortByProtocolAsync(addresses.Select(a => new Uri(a)).ToArray());
    }

    /// <summary>Adds to the app's services and settings.</summary>
    protected virtual void Configure(WebApplicationBuilder builder)
    {
    }

    /// <summary>Maps the client test service, the first mapping of it, whose Connect paths are therefore its own.</summary>
    protected virtual void MapTestService(WebApplication app) => app.MapProtoService<ClientTestService>();

    /// <summary>Both endpoints bound port 0, so which is which shows only by asking: the HTTP/2-only one refuses HTTP/1.1.</summary>
    private static async Task<(Uri Http1, Uri Http2)> SortByProtocolAsync(Uri[] addresses)
    {
        if (addresses.Length != 2)
        {
            throw new InvalidOperationException($"The sample should bind two endpoints, not {addresses.Length}: {string.Join(", ", addresses.AsEnumerable())}.");
        }

        using var http1 = new HttpClient();
        try
        {
            using var response = await http1.GetAsync(new Uri(addresses[0], "/ProtoService.proto"));
            if (response.IsSuccessStatusCode)
            {
                return (addresses[0], addresses[1]);
            }
        }
        catch (HttpRequestException)
        {
            // The h2c endpoint drops HTTP/1.1 connections.
        }

        return (addresses[1], addresses[0]);
    }

    public async Task DisposeAsync()
    {
        if (_app is not null)
        {
            await _app.StopAsync();
            await _app.DisposeAsync();
        }
    }
}
