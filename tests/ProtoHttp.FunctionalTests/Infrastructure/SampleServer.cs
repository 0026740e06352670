using System.Net;
using Microsoft.AspNetCore.Builder;
using Microsoft.AspNetCore.Connections;
using Microsoft.AspNetCore.Hosting;
using Microsoft.Extensions.DependencyInjection;
using Microsoft.Extensions.Logging;
using ProtoHttp.FunctionalTests.Services;
using SearchService;

namespace ProtoHttp.FunctionalTests.Infrastructure;

/// <summary>
/// The sample server on real Kestrel at loopback ports: HTTP/1.1 and h2c (prior knowledge), with the test service
/// mapped beside the sample's, a second copy of it behind <c>RequireAuthorization()</c>, the streaming test service,
/// and every log line kept.
/// </summary>
public sealed class SampleServer : IAsyncDisposable
{
    private readonly WebApplication _app;

    private SampleServer(WebApplication app, LogSink logs, Uri http1Address, Uri http2Address)
    {
        _app = app;
        Logs = logs;
        Http1Address = http1Address;
        Http2Address = http2Address;
        Client = new HttpClient { BaseAddress = Http1Address };
    }

    public Uri Http1Address { get; }

    public Uri Http2Address { get; }

    /// <summary>A plain HTTP/1.1 client for the server.</summary>
    public HttpClient Client { get; }

    public LogSink Logs { get; }

    public CallProbe Probe => _app.Services.GetRequiredService<CallProbe>();

    public StreamProbe StreamProbe => _app.Services.GetRequiredService<StreamProbe>();

    public IServiceProvider Services => _app.Services;

    /// <param name="environment">The host's environment.</param>
    /// <param name="configure">Adds to the app's services and settings.</param>
    /// <param name="map">Maps more endpoints.</param>
    /// <param name="mapTestServices">Whether the test services are mapped first (then their Connect paths are theirs).</param>
    public static async Task<SampleServer> StartAsync(
        string environment = "Production", Action<WebApplicationBuilder>? configure = null, Action<WebApplication>? map = null, bool mapTestServices = true)
    {
        // A free port is only free when it is asked for: a process started beside the tests (a nats-server, another
        // test's server) can take it before Kestrel binds. Then the server starts again on other ports.
        for (var attempt = 1; ; attempt++)
        {
            try
            {
                return await TryStartAsync(environment, configure, map, mapTestServices);
            }
            catch (IOException ex) when (ex.InnerException is AddressInUseException && attempt < 3)
            {
            }
        }
    }

    private static async Task<SampleServer> TryStartAsync(
        string environment, Action<WebApplicationBuilder>? configure, Action<WebApplication>? map, bool mapTestServices)
    {
        var logs = new LogSink();
        var http1 = new Uri($"http://127.0.0.1:{LoopbackPort.Free()}");
        var http2 = new Uri($"http://127.0.0.1:{LoopbackPort.Free()}");
        string[] args =
        [
            "--environment", environment,
            $"--Kestrel:Endpoints:Http:Url={http1}",
            "--Kestrel:Endpoints:Http:Protocols=Http1",
            $"--Kestrel:Endpoints:Grpc:Url={http2}",
            "--Kestrel:Endpoints:Grpc:Protocols=Http2",
        ];
        var app = SearchServiceApp.Build(args, builder =>
        {
            builder.Logging.ClearProviders();
            builder.Logging.AddProvider(logs);
            builder.Logging.AddFilter<LogSink>(category: null, LogLevel.Debug); // Beats appsettings.json: provider rules win.
            builder.Services.AddSingleton<CallProbe>();
            builder.Services.AddSingleton<StreamProbe>();
            HeaderAuthenticationHandler.AddTo(builder.Services);
            builder.Services.AddProtoHttp().AddServiceOptions<ScriptedTestService>(o => o.MaxRequestBodySize = 64 * 1024);
            configure?.Invoke(builder);
        });
        if (mapTestServices)
        {
            app.MapProtoService<ScriptedTestService>();
            app.MapProtoService<ScriptedTestService>("/secure/test_service.proto").RequireAuthorization();
            app.MapProtoService<StreamingTestService>();
        }

        map?.Invoke(app);
        try
        {
            await app.StartAsync();
        }
        catch
        {
            await app.DisposeAsync();
            throw;
        }

        return new SampleServer(app, logs, http1, http2);
    }

    /// <summary>A client that speaks HTTP/2 with prior knowledge to the h2c endpoint.</summary>
    public HttpClient CreateHttp2Client() => new()
    {
        BaseAddress = Http2Address,
        DefaultRequestVersion = HttpVersion.Version20,
        DefaultVersionPolicy = HttpVersionPolicy.RequestVersionExact,
    };

    /// <summary>
    /// A client with one connection to the server (HTTP/1.1, or h2c with prior knowledge), so each request goes out on
    /// it after the one before: Kestrel reads the next request of a connection only after it has finished with the
    /// last, including the drain of a body the call did not read, so the next answer marks that drain's end.
    /// </summary>
    public HttpClient CreateOneConnectionClient(bool http2 = false) => new(new SocketsHttpHandler { MaxConnectionsPerServer = 1 })
    {
        BaseAddress = http2 ? Http2Address : Http1Address,
        DefaultRequestVersion = http2 ? HttpVersion.Version20 : HttpVersion.Version11,
        DefaultVersionPolicy = HttpVersionPolicy.RequestVersionExact,
    };

    /// <summary>Stops the host as SIGTERM would: the listeners close at once, calls in flight get the host's shutdown timeout.</summary>
    public Task StopAsync() => _app.StopAsync();

    public async ValueTask DisposeAsync()
    {
        Client.Dispose();
        await _app.StopAsync();
        await _app.DisposeAsync();
    }
}
