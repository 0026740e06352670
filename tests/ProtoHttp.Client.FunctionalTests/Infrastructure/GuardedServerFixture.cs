using Microsoft.AspNetCore.Builder;
using Microsoft.AspNetCore.Hosting.Server;
using Microsoft.AspNetCore.Hosting.Server.Features;
using Microsoft.AspNetCore.Http.Features;
using Microsoft.Extensions.DependencyInjection;
using Microsoft.Extensions.Logging;
using ProtoHttp.Client.FunctionalTests.Services;
using ProtoHttp.FunctionalTests.Infrastructure;
using SearchService;

namespace ProtoHttp.Client.FunctionalTests.Infrastructure;

/// <summary>
/// The sample app on real Kestrel at a loopback port, with the client test service behind the <c>admin</c> policy and
/// the one-per-key rate limiter of <see cref="GuardedApp"/>, and ProtoHttp's rejections on.
/// </summary>
public sealed class GuardedServerFixture : IAsyncLifetime
{
    private WebApplication? _app;

    public Uri Address { get; private set; } = null!;

    public async Task InitializeAsync()
    {
        string[] args =
        [
            "--environment=Production",
            "--Kestrel:Endpoints:Http:Url=http://127.0.0.1:0",
            "--Kestrel:Endpoints:Http:Protocols=Http1",
        ];
        var app = SearchServiceApp.Build(args, builder =>
        {
            builder.Logging.ClearProviders();
            builder.Services.AddSingleton<CallProbe>();
            GuardedApp.AddGuards(builder);
        });
        app.MapProtoService<ClientTestService>().RequireAuthorization(GuardedApp.AdminPolicy).RequireRateLimiting(GuardedApp.LimitPolicy);
        await app.StartAsync();
        _app = app;
        Address = new Uri(app.Services.GetRequiredService<IServer>().Features.GetRequiredFeature<IServerAddressesFeature>().Addresses.Single());
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
