using Microsoft.AspNetCore.Builder;
using Microsoft.AspNetCore.Hosting;
using Microsoft.Extensions.DependencyInjection;
using Microsoft.Extensions.Logging;
using ProtoHttp.FunctionalTests.Infrastructure;
using SearchService;

namespace ProtoHttp.BrowserTests.Infrastructure;

/// <summary>The sample server, pages and all, on real Kestrel at a loopback port, with every log line kept.</summary>
public sealed class SampleSite : IAsyncDisposable
{
    private readonly WebApplication _app;

    private SampleSite(WebApplication app, LogSink logs, Uri address)
    {
        _app = app;
        Logs = logs;
        Address = address;
    }

    /// <summary>The HTTP/1.1 endpoint the browser opens.</summary>
    public Uri Address { get; }

    public LogSink Logs { get; }

    public static async Task<SampleSite> StartAsync()
    {
        var logs = new LogSink();
        var address = new Uri($"http://127.0.0.1:{LoopbackPort.Free()}");
        string[] args =
        [
            "--environment", "Production",
            $"--Kestrel:Endpoints:Http:Url={address}",
            "--Kestrel:Endpoints:Http:Protocols=Http1",
            // The sample's gRPC endpoint has a fixed port in appsettings.json: any free one will do here.
            "--Kestrel:Endpoints:Grpc:Url=http://127.0.0.1:0",
            "--Kestrel:Endpoints:Grpc:Protocols=Http2",
        ];
        var app = SearchServiceApp.Build(args, builder =>
        {
            builder.Logging.ClearProviders();
            builder.Logging.AddProvider(logs);
            builder.Logging.AddFilter<LogSink>(category: null, LogLevel.Information);
            builder.Services.AddSingleton<IStartupFilter, EchoHeaderFilter>();
        });
        await app.StartAsync();
        return new SampleSite(app, logs, address);
    }

    public Uri Url(string pathAndQuery) => new(Address, pathAndQuery);

    public async ValueTask DisposeAsync()
    {
        await _app.StopAsync();
        await _app.DisposeAsync();
    }
}
