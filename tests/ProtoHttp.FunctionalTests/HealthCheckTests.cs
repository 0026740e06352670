using System.Net;
using Microsoft.Extensions.DependencyInjection;
using Microsoft.Extensions.Diagnostics.HealthChecks;
using ProtoHttp.FunctionalTests.Infrastructure;
using SearchService;

namespace ProtoHttp.FunctionalTests;

/// <summary>The sample's health endpoints: liveness at /healthz, readiness at /healthz/ready, each answering for itself.</summary>
public sealed class HealthCheckTests
{
    [Fact]
    public async Task AStartedSampleIsLiveAndReady()
    {
        await using var server = await SampleServer.StartAsync();

        Assert.Equal("Healthy", await server.Client.GetStringAsync("/healthz"));
        Assert.Equal("Healthy", await server.Client.GetStringAsync("/healthz/ready"));
    }

    [Fact]
    public async Task AFailingReadinessCheckTakesTheInstanceOutOfRotationWithoutRestartingIt()
    {
        await using var server = await SampleServer.StartAsync(configure: builder =>
            builder.Services.AddHealthChecks().AddCheck("dependency", () => HealthCheckResult.Unhealthy("down"), tags: [SearchServiceApp.ReadyTag]));

        using var live = await server.Client.GetAsync("/healthz");
        using var ready = await server.Client.GetAsync("/healthz/ready");

        Assert.Equal(HttpStatusCode.OK, live.StatusCode);
        Assert.Equal(HttpStatusCode.ServiceUnavailable, ready.StatusCode);
        Assert.Equal("Unhealthy", await ready.Content.ReadAsStringAsync());
    }
}
