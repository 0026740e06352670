using System.Diagnostics;
using Grpc.Core;
using ProtoHttp.Client.FunctionalTests.Infrastructure;
using ProtoHttp.Client.FunctionalTests.Protos;

namespace ProtoHttp.Client.FunctionalTests;

/// <summary>Deadlines, cancellation and metadata between the generated client and the real server.</summary>
public sealed class CallContextTests(ServerFixture server) : IClassFixture<ServerFixture>
{
    private static readonly TimeSpan Patience = TimeSpan.FromSeconds(10);

    [Fact]
    public async Task ADeadlineShorterThanTheCallIsDeadlineExceededAndCancelsTheServer()
    {
        using var clients = new ClientFactory(server.Address);
        var probe = Guid.NewGuid().ToString();
        // A cold server (JIT, first connection) on a loaded CI machine can take longer than the
        // deadline to reach the service; then the call never starts there and no token can fire.
        await clients.Test.EchoAsync(new EchoRequest());
        var clock = Stopwatch.StartNew();

        var ex = await Assert.ThrowsAsync<RpcException>(() =>
            clients.Test.SlowAsync(new SlowRequest { DelayMs = 30_000, Probe = probe }, deadline: DateTime.UtcNow.AddSeconds(2)).ResponseAsync);

        Assert.Equal(StatusCode.DeadlineExceeded, ex.StatusCode);
        Assert.True(clock.Elapsed < Patience, $"The call took {clock.Elapsed}.");
        Assert.True(await server.Probe.Outcome(probe).WaitAsync(Patience), "The server's token did not fire.");
    }

    [Fact]
    public async Task ADeadlineLongerThanTheCallLetsItFinish()
    {
        using var clients = new ClientFactory(server.Address);
        var probe = Guid.NewGuid().ToString();

        await clients.Test.SlowAsync(new SlowRequest { DelayMs = 10, Probe = probe }, deadline: DateTime.UtcNow.AddSeconds(30));

        Assert.False(await server.Probe.Outcome(probe).WaitAsync(Patience));
    }

    [Fact]
    public async Task CancellingTheTokenIsCancelledAndCancelsTheServer()
    {
        using var clients = new ClientFactory(server.Address);
        var probe = Guid.NewGuid().ToString();
        using var cancellation = new CancellationTokenSource();
        using var call = clients.Test.SlowAsync(new SlowRequest { DelayMs = 30_000, Probe = probe }, cancellationToken: cancellation.Token);
        await server.Probe.Started(probe).WaitAsync(Patience);

        await cancellation.CancelAsync();
        var ex = await Assert.ThrowsAsync<RpcException>(() => call.ResponseAsync);

        Assert.Equal(StatusCode.Cancelled, ex.StatusCode);
        Assert.True(await server.Probe.Outcome(probe).WaitAsync(Patience), "The server's token did not fire.");
    }

    [Fact]
    public async Task MetadataTravelsBothWays()
    {
        using var clients = new ClientFactory(server.Address);
        var headers = new Metadata { { "x-trace", "abc-123" }, { "x-blob-bin", new byte[] { 0, 1, 254, 255 } } };

        using var call = clients.Test.EchoAsync(new EchoRequest(), headers);
        var reply = await call.ResponseAsync;
        var responseHeaders = await call.ResponseHeadersAsync;
        var trailers = call.GetTrailers();

        Assert.Equal("abc-123", reply.Headers["x-trace"]);
        Assert.Equal(new byte[] { 0, 1, 254, 255 }, reply.Blob.ToByteArray());
        Assert.Equal("sent as a header", responseHeaders.GetValue("x-echo-header"));
        Assert.Equal("sent as a trailer", trailers.GetValue("x-echo-trailer"));
        Assert.Equal(new byte[] { 1, 2, 255 }, trailers.GetValueBytes("x-echo-bin"));
        Assert.Equal(StatusCode.OK, call.GetStatus().StatusCode);
    }
}
