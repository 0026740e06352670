using Microsoft.AspNetCore.Builder;
using ProtoHttp.FunctionalTests.Services;

namespace ProtoHttp.FunctionalTests.Infrastructure;

/// <summary>
/// The sample server with <see cref="GuardedApp"/>'s guards: the attribute-guarded test service mapped first (so its
/// Connect paths are its own) behind the one-per-key limiter, the streaming test service behind the <c>admin</c>
/// policy and the limiter (its <c>.proto</c> source behind the policy too), and <c>/plain</c>, an endpoint that is not
/// ProtoHttp's, behind both.
/// </summary>
public sealed class RefusalServerFixture : IAsyncLifetime
{
    public const string PlainPath = "/plain";

    private SampleServer? _server;

    public HttpClient Client => Server.Client;

    private SampleServer Server => _server ?? throw new InvalidOperationException("The server has not started.");

    public async Task InitializeAsync() => _server = await SampleServer.StartAsync(
        configure: GuardedApp.AddGuards,
        map: app =>
        {
            app.MapProtoService<GuardedTestService>().RequireRateLimiting(GuardedApp.LimitPolicy);
            app.MapProtoService<StreamingTestService>().RequireAuthorization(GuardedApp.AdminPolicy).RequireRateLimiting(GuardedApp.LimitPolicy)
                .ProtoFile.RequireAuthorization(GuardedApp.AdminPolicy);
            app.MapGet(PlainPath, () => "plain").RequireAuthorization(GuardedApp.AdminPolicy).RequireRateLimiting(GuardedApp.LimitPolicy);
        },
        mapTestServices: false);

    public async Task DisposeAsync()
    {
        if (_server is not null)
        {
            await _server.DisposeAsync();
        }
    }
}
