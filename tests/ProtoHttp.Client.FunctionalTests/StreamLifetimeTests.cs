using Grpc.Core;
using ProtoHttp.Client.FunctionalTests.Infrastructure;
using ProtoHttp.Client.FunctionalTests.Protos;

namespace ProtoHttp.Client.FunctionalTests;

/// <summary>
/// How streaming calls end other than by themselves: a deadline mid-stream, the caller's token, Dispose, the token of
/// one read, and a message over the client's size limit. Where the server is involved, its call's token must fire.
/// </summary>
public sealed class StreamLifetimeTests(ServerFixture server) : IClassFixture<ServerFixture>
{
    private static readonly TimeSpan ServerNotices = TimeSpan.FromSeconds(10);

    // The deadline counts from the call's start, and a message must go out before it passes: on a loaded 2-core
    // machine a new connection and the first message can take most of a second, so 700 ms was a race. Each test then
    // waits this long for the deadline, which is what ends the call (the service holds it open far longer).
    private const int MidStreamDeadlineMs = 2_500;

    public static TheoryData<string, bool> ProtocolsAndTransports => new()
    {
        { ProtocolNames.ProtoHttp, false }, { ProtocolNames.ProtoHttp, true }, { ProtocolNames.Connect, false }, { ProtocolNames.Connect, true },
    };

    [Theory]
    [MemberData(nameof(ProtocolsAndTransports))]
    public async Task ADeadlineMidStreamEndsTheServerStream(string protocol, bool http2)
    {
        using var clients = new StreamClients(server, protocol, CodecNames.Protobuf, http2);
        var probe = $"server-deadline-{protocol}-{http2}";
        await WarmUpAsync(clients);

        using var call = clients.Test.Count(new CountRequest { Count = 1, HangMs = 30_000, Probe = probe }, deadline: DateTime.UtcNow.AddMilliseconds(MidStreamDeadlineMs));
        Assert.True(await call.ResponseStream.MoveNext(CancellationToken.None));
        var ex = await Assert.ThrowsAsync<RpcException>(() => call.ResponseStream.MoveNext(CancellationToken.None));

        Assert.Equal(StatusCode.DeadlineExceeded, ex.StatusCode);
        Assert.Equal(StatusCode.DeadlineExceeded, call.GetStatus().StatusCode);
        Assert.True(await server.Probe.Outcome(probe).WaitAsync(ServerNotices), "The service's token did not fire.");
    }

    [Theory]
    [MemberData(nameof(ProtocolsAndTransports))]
    public async Task ADeadlineMidStreamEndsTheClientStream(string protocol, bool http2)
    {
        using var clients = new StreamClients(server, protocol, CodecNames.Protobuf, http2);
        var probe = $"client-deadline-{protocol}-{http2}";
        await WarmUpAsync(clients);

        using var call = clients.Test.Sum(new Metadata { { "x-probe", probe } }, deadline: DateTime.UtcNow.AddMilliseconds(MidStreamDeadlineMs));
        await call.RequestStream.WriteAsync(new Number { Value = 1 });
        var ex = await Assert.ThrowsAsync<RpcException>(() => call.ResponseAsync);

        Assert.Equal(StatusCode.DeadlineExceeded, ex.StatusCode);
        Assert.True(await server.Probe.Outcome(probe).WaitAsync(ServerNotices), "The service's token did not fire.");
        var write = await Assert.ThrowsAsync<RpcException>(() => call.RequestStream.WriteAsync(new Number { Value = 2 }));
        Assert.Equal(StatusCode.DeadlineExceeded, write.StatusCode);
    }

    [Theory]
    [InlineData(ProtocolNames.ProtoHttp)]
    [InlineData(ProtocolNames.Connect)]
    public async Task ADeadlineMidStreamEndsABidirectionalCall(string protocol)
    {
        using var clients = new StreamClients(server, protocol, CodecNames.Json, http2: true);
        var probe = $"duplex-deadline-{protocol}";
        await WarmUpAsync(clients);

        using var call = clients.Test.Twice(new Metadata { { "x-probe", probe } }, deadline: DateTime.UtcNow.AddMilliseconds(MidStreamDeadlineMs));
        await call.RequestStream.WriteAsync(new Number { Value = 4 });
        Assert.True(await call.ResponseStream.MoveNext(CancellationToken.None));
        var ex = await Assert.ThrowsAsync<RpcException>(() => call.ResponseStream.MoveNext(CancellationToken.None));

        Assert.Equal(8, call.ResponseStream.Current.Value);
        Assert.Equal(StatusCode.DeadlineExceeded, ex.StatusCode);
        Assert.True(await server.Probe.Outcome(probe).WaitAsync(ServerNotices), "The service's token did not fire.");
    }

    [Fact]
    public async Task ADeadlineAlreadyPassedFailsAtOnce()
    {
        using var clients = new StreamClients(server, ProtocolNames.ProtoHttp, CodecNames.Protobuf, http2: false);

        using var call = clients.Test.Count(new CountRequest { Count = 1 }, deadline: DateTime.UtcNow.AddSeconds(-1));
        var ex = await Assert.ThrowsAsync<RpcException>(() => call.ResponseStream.MoveNext(CancellationToken.None));

        Assert.Equal(StatusCode.DeadlineExceeded, ex.StatusCode);
    }

    [Theory]
    [MemberData(nameof(ProtocolsAndTransports))]
    public async Task TheCallersTokenCancelsTheStream(string protocol, bool http2)
    {
        using var clients = new StreamClients(server, protocol, CodecNames.Protobuf, http2);
        var probe = $"token-{protocol}-{http2}";
        using var cancellation = new CancellationTokenSource();

        using var call = clients.Test.Count(new CountRequest { Count = 1, HangMs = 30_000, Probe = probe }, cancellationToken: cancellation.Token);
        Assert.True(await call.ResponseStream.MoveNext(CancellationToken.None));
        await server.Probe.Started(probe);
        await cancellation.CancelAsync();
        var ex = await Assert.ThrowsAsync<RpcException>(() => call.ResponseStream.MoveNext(CancellationToken.None));

        Assert.Equal(StatusCode.Cancelled, ex.StatusCode);
        Assert.True(await server.Probe.Outcome(probe).WaitAsync(ServerNotices), "The service's token did not fire.");
    }

    [Theory]
    [MemberData(nameof(ProtocolsAndTransports))]
    public async Task DisposingTheCallCancelsIt(string protocol, bool http2)
    {
        using var clients = new StreamClients(server, protocol, CodecNames.Protobuf, http2);
        var probe = $"dispose-{protocol}-{http2}";

        var call = clients.Test.Count(new CountRequest { Count = 1, HangMs = 30_000, Probe = probe });
        Assert.True(await call.ResponseStream.MoveNext(CancellationToken.None));
        await server.Probe.Started(probe);
        call.Dispose();

        Assert.True(await server.Probe.Outcome(probe).WaitAsync(ServerNotices), "The service's token did not fire.");
        var ex = await Assert.ThrowsAsync<RpcException>(() => call.ResponseStream.MoveNext(CancellationToken.None));
        Assert.Equal(StatusCode.Cancelled, ex.StatusCode);
    }

    [Theory]
    [InlineData(false)]
    [InlineData(true)]
    public async Task DisposingAClientStreamingCallCancelsIt(bool http2)
    {
        using var clients = new StreamClients(server, ProtocolNames.ProtoHttp, CodecNames.Protobuf, http2);
        var probe = $"dispose-upload-{http2}";

        var call = clients.Test.Sum(new Metadata { { "x-probe", probe } });
        await call.RequestStream.WriteAsync(new Number { Value = 1 });
        await server.Probe.Started(probe);
        call.Dispose();

        Assert.True(await server.Probe.Outcome(probe).WaitAsync(ServerNotices), "The service's token did not fire.");
        var ex = await Assert.ThrowsAsync<RpcException>(() => call.ResponseAsync);
        Assert.Equal(StatusCode.Cancelled, ex.StatusCode);
    }

    [Fact]
    public async Task TheTokenOfOneReadCancelsTheCall()
    {
        using var clients = new StreamClients(server, ProtocolNames.Connect, CodecNames.Protobuf, http2: true);
        using var cancellation = new CancellationTokenSource(TimeSpan.FromMilliseconds(300));

        using var call = clients.Test.Count(new CountRequest { Count = 1, HangMs = 30_000 });
        Assert.True(await call.ResponseStream.MoveNext(CancellationToken.None));
        var ex = await Assert.ThrowsAsync<RpcException>(() => call.ResponseStream.MoveNext(cancellation.Token));

        Assert.Equal(StatusCode.Cancelled, ex.StatusCode);
        Assert.Contains("cancelled by the token given to MoveNext", ex.Status.Detail);
    }

    [Theory]
    [MemberData(nameof(ProtocolsAndTransports))]
    public async Task EachMessageIsHeldToTheResponseLimit(string protocol, bool http2)
    {
        using var clients = new StreamClients(server, protocol, CodecNames.Protobuf, http2, maxResponseSize: 1_000);

        using var small = clients.Test.Count(new CountRequest { Count = 5, Padding = 900 });
        var values = await small.ResponseStream.ReadAllAsync().Select(n => n.Value).ToListAsync();
        using var large = clients.Test.Count(new CountRequest { Count = 2, Padding = 2_000 });
        var ex = await Assert.ThrowsAsync<RpcException>(() => large.ResponseStream.MoveNext(CancellationToken.None));

        // Five messages of 900 bytes are 4,500 bytes in all: the limit is each message's, not the stream's.
        Assert.Equal([1, 2, 3, 4, 5], values);
        Assert.Equal(StatusCode.ResourceExhausted, ex.StatusCode);
        // Over Connect the server gzips it (the client accepts gzip), so the detail may speak of the gzipped size.
        Assert.Contains("ProtoHttpClientOptions.MaxResponseSize (1000 bytes)", ex.Status.Detail, StringComparison.Ordinal);
    }

    [Fact]
    public async Task ConcurrentReadsAreRefused()
    {
        using var clients = new StreamClients(server, ProtocolNames.ProtoHttp, CodecNames.Protobuf, http2: true);

        using var call = clients.Test.Count(new CountRequest { Count = 0, HangMs = 30_000 });
        var first = call.ResponseStream.MoveNext(CancellationToken.None);
        var ex = await Assert.ThrowsAsync<InvalidOperationException>(() => call.ResponseStream.MoveNext(CancellationToken.None));

        Assert.Equal("A previous read of the response stream is still in progress; await each MoveNext before the next.", ex.Message);
        call.Dispose();
        Assert.Equal(StatusCode.Cancelled, (await Assert.ThrowsAsync<RpcException>(() => first)).StatusCode);
    }

    [Theory]
    [MemberData(nameof(ProtocolsAndTransports))]
    public async Task ASlowReaderHoldsTheServiceBackInsteadOfBuffering(string protocol, bool http2)
    {
        using var clients = new StreamClients(server, protocol, CodecNames.Protobuf, http2);
        var probe = $"slow-reader-{protocol}-{http2}";

        // 128 MiB in all: far more than the socket buffers, HTTP/2's windows and Kestrel's response buffer hold.
        using var call = clients.Test.Count(new CountRequest { Count = 2_000, Padding = 64 * 1024, Probe = probe });
        Assert.True(await call.ResponseStream.MoveNext(CancellationToken.None));
        await Task.Delay(1_000);

        // The client reads only as asked, so the service is still waiting for the network to take its numbers.
        Assert.False(server.Probe.Outcome(probe).IsCompleted, "The service wrote every number: something read ahead of the caller.");
        var count = 1;
        while (await call.ResponseStream.MoveNext(CancellationToken.None))
        {
            count++;
        }

        Assert.Equal(2_000, count);
        Assert.False(await server.Probe.Outcome(probe).WaitAsync(ServerNotices));
    }

    /// <summary>
    /// One call before a call with a deadline: a cold server and a new connection on a loaded machine can take much of
    /// the deadline to reach the service, and a call that reaches it only after its deadline has no token left to fire.
    /// The deadline's call then finds the connection open and the server's path compiled.
    /// </summary>
    private static async Task WarmUpAsync(StreamClients clients) => await clients.Test.EchoAsync(new EchoRequest());
}
