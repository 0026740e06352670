using System.Net;
using Microsoft.AspNetCore.Builder;
using Microsoft.AspNetCore.Hosting;
using Microsoft.Extensions.DependencyInjection;
using Microsoft.Extensions.Logging;
using ProtoHttp.AspNetCore;
using ProtoHttp.FunctionalTests.Services;

namespace ProtoHttp.FunctionalTests.Infrastructure;

/// <summary>
/// An app of the middleware tests' own, not the sample, on real Kestrel at a loopback port (HTTP/1.1): ProtoHttp with
/// <see cref="MiddlewareTestService"/> and the explorer, in the middleware a test class sets up, every log line kept.
/// </summary>
public sealed class MiddlewareApp : IAsyncDisposable
{
    public const string Prefix = "/middleware_service.proto";

    /// <summary>The service's Connect paths: <c>/{package.Service}/{Method}</c>.</summary>
    public const string ConnectPrefix = "/protohttp.tests.middleware.MiddlewareService";

    private readonly WebApplication _app;

    private MiddlewareApp(WebApplication app, LogSink logs, Uri address)
    {
        _app = app;
        Logs = logs;
        Address = address;
        Client = new HttpClient { BaseAddress = address };
    }

    public Uri Address { get; }

    /// <summary>A plain HTTP/1.1 client for the app.</summary>
    public HttpClient Client { get; }

    public LogSink Logs { get; }

    public IServiceProvider Services => _app.Services;

    /// <param name="services">Adds the middleware's services and options.</param>
    /// <param name="pipeline">Adds the middleware to the pipeline, before routing and the endpoints.</param>
    /// <param name="conventions">Conventions on the service's endpoints.</param>
    /// <param name="configureKestrel">Listens on more endpoints (HTTPS).</param>
    public static async Task<MiddlewareApp> StartAsync(
        Action<IServiceCollection>? services = null,
        Action<WebApplication>? pipeline = null,
        Action<ProtoServiceEndpointConventionBuilder>? conventions = null,
        Action<Microsoft.AspNetCore.Server.Kestrel.Core.KestrelServerOptions>? configureKestrel = null)
    {
        var logs = new LogSink();
        var port = LoopbackPort.Free();
        var builder = WebApplication.CreateBuilder(new WebApplicationOptions
        {
            EnvironmentName = "Production",
            ContentRootPath = AppContext.BaseDirectory,
        });
        builder.Logging.ClearProviders();
        builder.Logging.AddProvider(logs);
        builder.Logging.AddFilter<LogSink>(category: null, LogLevel.Debug);
        builder.WebHost.ConfigureKestrel(kestrel =>
        {
            kestrel.Listen(IPAddress.Loopback, port);
            configureKestrel?.Invoke(kestrel);
        });
        builder.Services.AddProtoHttp();
        services?.Invoke(builder.Services);

        var app = builder.Build();
        pipeline?.Invoke(app);
        var mapped = app.MapProtoService<MiddlewareTestService>();
        conventions?.Invoke(mapped);
        app.MapProtoHttpExplorer();
        await app.StartAsync();
        return new MiddlewareApp(app, logs, new Uri($"http://127.0.0.1:{port}"));
    }

    public async ValueTask DisposeAsync()
    {
        Client.Dispose();
        await _app.StopAsync();
        await _app.DisposeAsync();
    }
}
