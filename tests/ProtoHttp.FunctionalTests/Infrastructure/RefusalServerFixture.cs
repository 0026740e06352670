using Microsoft.AspNetCore.Builder;
using Microsoft.AspNetCore.Http;
using Microsoft.Extensions.DependencyInjection;
using Microsoft.Extensions.Logging;
using ProtoHttp.FunctionalTests.Services;
using SearchService;

namespace ProtoHttp.FunctionalTests.Infrastructure;

/// <summary>
/// The sample app on real Kestrel with <see cref="GuardedApp"/>'s guards: the attribute-guarded test service mapped
/// first (so its Connect paths are its own) behind the one-per-key limiter, the streaming test service behind the
/// <c>admin</c> policy and the limiter, and <c>/plain</c>, an endpoint that is not ProtoHttp's, behind both.
/// </summary>
public sealed class RefusalServerFixture : IAsyncLifetime
{
    public const string PlainPath = "/plain";

    private WebApplication? _app;

    public HttpClient Client { get; private set; } = null!;

    public LogSink Logs { get; } = new();

    public async Task InitializeAsync()
    {
        var address = new Uri($"http://127.0.0.1:{SampleServer.FreePort()}");
        string[] args =
        [
            "--environment", "Production",
            $"--Kestrel:Endpoints:Http:Url={address}",
            "--Kestrel:Endpoints:Http:Protocols=Http1",
            $"--Kestrel:Endpoints:Grpc:Url=http://127.0.0.1:{SampleServer.FreePort()}",
            "--Kestrel:Endpoints:Grpc:Protocols=Http2",
        ];
        var app = SearchServiceApp.Build(args, builder =>
        {
            builder.Logging.ClearProviders();
            builder.Logging.AddProvider(Logs);
            builder.Services.AddSingleton<StreamProbe>();
            GuardedApp.AddGuards(builder);
        });
        app.MapProtoService<GuardedTestService>().RequireRateLimiting(GuardedApp.LimitPolicy);
        app.MapProtoService<StreamingTestService>().RequireAuthorization(GuardedApp.AdminPolicy).RequireRateLimiting(GuardedApp.LimitPolicy);
        app.MapGet(PlainPath, () => "plain").RequireAuthorization(GuardedApp.AdminPolicy).RequireRateLimiting(GuardedApp.LimitPolicy);
        await app.StartAsync();
        _app = app;
        Client = new HttpClient { BaseAddress = address };
    }

    public async Task DisposeAsync()
    {
        Client.Dispose();
        if (_app is not null)
        {
            await _app.StopAsync();
            await _app.DisposeAsync();
        }
    }
}
