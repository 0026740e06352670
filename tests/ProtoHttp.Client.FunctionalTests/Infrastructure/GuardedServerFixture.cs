using Microsoft.AspNetCore.Builder;
using ProtoHttp.Client.FunctionalTests.Services;
using ProtoHttp.FunctionalTests.Infrastructure;

namespace ProtoHttp.Client.FunctionalTests.Infrastructure;

/// <summary>
/// The server of <see cref="ServerFixture"/> with the client test service behind the <c>admin</c> policy and the
/// one-per-key rate limiter of <see cref="GuardedApp"/>, and ProtoHttp's rejections on.
/// </summary>
public sealed class GuardedServerFixture : ServerFixture
{
    protected override void Configure(WebApplicationBuilder builder)
    {
        HeaderAuthenticationHandler.AddTo(builder.Services);
        GuardedApp.AddGuards(builder);
    }

    protected override void MapTestService(WebApplication app) =>
        app.MapProtoService<ClientTestService>().RequireAuthorization(GuardedApp.AdminPolicy).RequireRateLimiting(GuardedApp.LimitPolicy);
}
