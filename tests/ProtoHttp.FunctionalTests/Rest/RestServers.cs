using Microsoft.AspNetCore.Builder;
using Microsoft.AspNetCore.Hosting;
using Microsoft.Extensions.DependencyInjection;
using Microsoft.Extensions.Logging;
using ProtoHttp.AspNetCore;
using ProtoHttp.FunctionalTests.Services;

namespace ProtoHttp.FunctionalTests.Rest;

/// <summary>
/// The Library served twice on loopback, each by its own Kestrel host at a free port: by ProtoHttp's REST routes
/// (<c>MapProtoService</c>) and by gRPC JSON transcoding (<c>MapGrpcService</c> with <c>AddJsonTranscoding</c>). One app
/// cannot hold both: their routes are the same paths.
/// </summary>
public sealed class RestServers : IAsyncLifetime
{
    private WebApplication? _protoHttp;
    private WebApplication? _transcoding;

    public HttpClient ProtoHttp { get; private set; } = null!;

    public HttpClient Transcoding { get; private set; } = null!;

    public async Task InitializeAsync()
    {
        _protoHttp = await StartAsync(builder => builder.Services.AddProtoHttp(), app => app.MapProtoService<LibraryService>());
        _transcoding = await StartAsync(builder => builder.Services.AddGrpc().AddJsonTranscoding(), app => app.MapGrpcService<LibraryService>());
        ProtoHttp = new HttpClient { BaseAddress = new Uri(_protoHttp.Urls.First()) };
        Transcoding = new HttpClient { BaseAddress = new Uri(_transcoding.Urls.First()) };
    }

    public async Task DisposeAsync()
    {
        ProtoHttp.Dispose();
        Transcoding.Dispose();
        await _protoHttp!.DisposeAsync();
        await _transcoding!.DisposeAsync();
    }

    /// <summary>Starts an app at a free loopback port with <paramref name="services"/> added and <paramref name="map"/> mapped.</summary>
    public static async Task<WebApplication> StartAsync(Action<WebApplicationBuilder> services, Action<WebApplication> map)
    {
        var builder = WebApplication.CreateBuilder(new WebApplicationOptions { EnvironmentName = "Production" });
        builder.Logging.ClearProviders();
        builder.WebHost.UseUrls("http://127.0.0.1:0");
        services(builder);
        var app = builder.Build();
        map(app);
        await app.StartAsync();
        return app;
    }
}
