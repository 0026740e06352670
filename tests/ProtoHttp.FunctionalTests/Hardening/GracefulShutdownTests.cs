using System.Net;
using System.Net.Sockets;
using ProtoHttp.FunctionalTests.Infrastructure;
using ProtoHttp.FunctionalTests.Protos;

namespace ProtoHttp.FunctionalTests.Hardening;

/// <summary>Stopping the host, as SIGTERM does, while slow calls are in flight: they finish with 200, new connections are refused.</summary>
public sealed class GracefulShutdownTests
{
    [Fact]
    public async Task CallsInFlightCompleteAndNewConnectionsAreRefused()
    {
        await using var server = await SampleServer.StartAsync();
        var address = server.Http1Address;
        var calls = Enumerable.Range(0, 4)
            .Select(_ => server.Client.SendAsync(Wire.Post("/test_service.proto/Slow", new SlowRequest { DelayMs = 2_000 }, "application/x-protobuf")))
            .ToList();
        await WaitUntilAsync(() => server.Probe.StartedCalls == calls.Count, "every call to reach the service");

        var stopping = server.StopAsync();
        var refusedWhileStopping = await RefusedBeforeAsync(address, stopping);
        var started = DateTime.UtcNow;
        await stopping.WaitAsync(TimeSpan.FromSeconds(25)); // Well inside the host's default shutdown timeout of 30 s.
        // Taken as the stop ends, not after the checks below: on a loaded machine their own connections and reads can take
        // seconds that are not the stop's.
        var stopTook = DateTime.UtcNow - started;

        foreach (var call in calls)
        {
            using var response = await call;
            Assert.Equal(HttpStatusCode.OK, response.StatusCode);
            Assert.True((await Wire.ReadAsync<SlowReply>(response)).Completed);
        }

        Assert.True(refusedWhileStopping, "a new connection was accepted while the host was stopping");
        Assert.True(await IsRefusedAsync(address), "a new connection was accepted after the host stopped");
        Assert.True(stopTook < TimeSpan.FromSeconds(5), $"stopping waited for more than the calls in flight ({stopTook})");
        Assert.Empty(await server.Logs.ErrorsOnceEndedAsync());
    }

    /// <summary>
    /// Whether a new connection is refused before <paramref name="stopping"/> completes: Kestrel stops listening first,
    /// then waits for the calls in flight, so the refusal comes while they run. Tried until then, not after a pause.
    /// </summary>
    private static async Task<bool> RefusedBeforeAsync(Uri address, Task stopping)
    {
        while (!stopping.IsCompleted)
        {
            if (await IsRefusedAsync(address))
            {
                return !stopping.IsCompleted;
            }

            await Task.Delay(10); // How often to try, not how long to wait: the loop ends with the stop.
        }

        return false;
    }

    private static async Task WaitUntilAsync(Func<bool> condition, string what)
    {
        for (var deadline = DateTime.UtcNow.AddSeconds(30); !condition(); await Task.Delay(10))
        {
            Assert.True(DateTime.UtcNow < deadline, $"Waited 30 s for {what}.");
        }
    }

    private static async Task<bool> IsRefusedAsync(Uri address)
    {
        using var tcp = new TcpClient();
        try
        {
            await tcp.ConnectAsync(address.Host, address.Port).WaitAsync(TimeSpan.FromSeconds(5));
            return false;
        }
        catch (SocketException ex) when (ex.SocketErrorCode == SocketError.ConnectionRefused)
        {
            return true;
        }
    }
}
