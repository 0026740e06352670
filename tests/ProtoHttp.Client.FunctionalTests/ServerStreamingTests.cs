using Grpc.Core;
using Northwind;
using ProtoHttp.Client.FunctionalTests.Infrastructure;
using ProtoHttp.Client.FunctionalTests.Protos;

namespace ProtoHttp.Client.FunctionalTests;

/// <summary>
/// Server-streaming calls through the generated clients, on ProtoHttp's paths and Connect's, in protobuf and JSON
/// envelopes, over HTTP/1.1 and h2c: messages in order, headers, trailers and status as under gRPC.
/// </summary>
public sealed class ServerStreamingTests(ServerFixture server) : IClassFixture<ServerFixture>
{
    [Theory]
    [MemberData(nameof(StreamClients.Everywhere), MemberType = typeof(StreamClients))]
    public async Task TheReplayArrivesInOrder(string protocol, string format, bool http2)
    {
        using var clients = new StreamClients(server, protocol, format, http2);

        using var call = clients.Streams.ReplayOrders(new ReplayRequest { Limit = 5 });
        var ids = new List<int>();
        await foreach (var order in call.ResponseStream.ReadAllAsync())
        {
            ids.Add(order.OrderId);
        }

        Assert.Equal([10248, 10249, 10250, 10251, 10252], ids);
        Assert.Equal(StatusCode.OK, call.GetStatus().StatusCode);
    }

    [Theory]
    [InlineData(ProtocolNames.ProtoHttp, CodecNames.Protobuf)]
    [InlineData(ProtocolNames.Connect, CodecNames.Json)]
    public async Task TheReplayIsWhatGrpcGets(string protocol, string format)
    {
        using var clients = new StreamClients(server, protocol, format, http2: false);
        using var channel = Grpc.Net.Client.GrpcChannel.ForAddress(server.Http2Address);
        var request = new ReplayRequest { Limit = 50 };

        using var call = clients.Streams.ReplayOrders(request);
        var orders = await call.ResponseStream.ReadAllAsync().ToListAsync();
        using var grpcCall = new NorthwindStreams.NorthwindStreamsClient(channel).ReplayOrders(request);
        var grpcOrders = await grpcCall.ResponseStream.ReadAllAsync().ToListAsync();

        Assert.Equal(50, orders.Count);
        Assert.Equal(grpcOrders, orders);
    }

    [Theory]
    [MemberData(nameof(StreamClients.Everywhere), MemberType = typeof(StreamClients))]
    public async Task HeadersMessagesAndTrailersArriveAsUnderGrpc(string protocol, string format, bool http2)
    {
        using var clients = new StreamClients(server, protocol, format, http2);

        using var call = clients.Test.Count(new CountRequest { Count = 3 });
        var headers = await call.ResponseHeadersAsync;
        var values = await call.ResponseStream.ReadAllAsync().Select(n => n.Value).ToListAsync();

        Assert.Equal("sent before the numbers", headers.GetValue("x-stream-header"));
        Assert.Equal([1, 2, 3], values);
        Assert.Equal(StatusCode.OK, call.GetStatus().StatusCode);
        Assert.Equal("3", call.GetTrailers().GetValue("x-count"));
    }

    [Theory]
    [MemberData(nameof(StreamClients.Everywhere), MemberType = typeof(StreamClients))]
    public async Task AnEmptyStreamEndsWell(string protocol, string format, bool http2)
    {
        using var clients = new StreamClients(server, protocol, format, http2);

        using var call = clients.Test.Count(new CountRequest { Count = 0 });

        Assert.False(await call.ResponseStream.MoveNext(CancellationToken.None));
        Assert.False(await call.ResponseStream.MoveNext(CancellationToken.None));
        Assert.Equal(StatusCode.OK, call.GetStatus().StatusCode);
        Assert.Equal("0", call.GetTrailers().GetValue("x-count"));
    }

    [Theory]
    [MemberData(nameof(StreamClients.Everywhere), MemberType = typeof(StreamClients))]
    public async Task AFailureBeforeTheFirstMessageArrivesWithItsTrailers(string protocol, string format, bool http2)
    {
        using var clients = new StreamClients(server, protocol, format, http2);

        using var call = clients.Test.Count(new CountRequest { Count = 0, FailCode = "NOT_FOUND", Detail = "Nothing to count." });
        var ex = await Assert.ThrowsAsync<RpcException>(() => call.ResponseStream.MoveNext(CancellationToken.None));

        Assert.Equal(StatusCode.NotFound, ex.StatusCode);
        Assert.Equal("Nothing to count.", ex.Status.Detail);
        Assert.Equal("Nothing to count.", ex.Trailers.GetValue("failure-reason"));
        Assert.Equal("0", ex.Trailers.GetValue("x-count"));
        Assert.Equal(StatusCode.NotFound, call.GetStatus().StatusCode);
        Assert.Same(ex.Trailers, call.GetTrailers());

        // Reading again tells the same failure, as under gRPC.
        var again = await Assert.ThrowsAsync<RpcException>(() => call.ResponseStream.MoveNext(CancellationToken.None));
        Assert.Equal(StatusCode.NotFound, again.StatusCode);
    }

    [Theory]
    [MemberData(nameof(StreamClients.Everywhere), MemberType = typeof(StreamClients))]
    public async Task AFailureAfterTheFirstMessageEndsTheStream(string protocol, string format, bool http2)
    {
        using var clients = new StreamClients(server, protocol, format, http2);

        using var call = clients.Test.Count(new CountRequest { Count = 2, FailCode = "DATA_LOSS", Detail = "The third number was lost." });
        var values = new List<int>();
        var ex = await Assert.ThrowsAsync<RpcException>(async () =>
        {
            await foreach (var number in call.ResponseStream.ReadAllAsync())
            {
                values.Add(number.Value);
            }
        });

        Assert.Equal([1, 2], values);
        Assert.Equal(StatusCode.DataLoss, ex.StatusCode);
        Assert.Equal("The third number was lost.", ex.Status.Detail);
        Assert.Equal("The third number was lost.", call.GetTrailers().GetValue("failure-reason"));
        Assert.Equal("2", call.GetTrailers().GetValue("x-count"));
    }

    [Theory]
    [MemberData(nameof(StreamClients.Everywhere), MemberType = typeof(StreamClients))]
    public async Task TheSamplesOwnRefusalArrives(string protocol, string format, bool http2)
    {
        using var clients = new StreamClients(server, protocol, format, http2);

        using var call = clients.Streams.ReplayOrders(new ReplayRequest { Limit = -1 });
        var ex = await Assert.ThrowsAsync<RpcException>(() => call.ResponseStream.MoveNext(CancellationToken.None));

        Assert.Equal(StatusCode.InvalidArgument, ex.StatusCode);
        Assert.Equal("limit cannot be negative.", ex.Status.Detail);
    }

    [Theory]
    [InlineData(ProtocolNames.ProtoHttp, false)]
    [InlineData(ProtocolNames.Connect, true)]
    public async Task ThePriceFeedTicksUntilTheClientLeaves(string protocol, bool http2)
    {
        using var clients = new StreamClients(server, protocol, CodecNames.Protobuf, http2);

        var ticks = new List<PriceTick>();
        using (var call = clients.Streams.WatchPrices(new PriceWatch()))
        {
            await foreach (var tick in call.ResponseStream.ReadAllAsync())
            {
                ticks.Add(tick);
                if (ticks.Count == 3)
                {
                    break;
                }
            }
        }

        Assert.Equal(3, ticks.Count);
        Assert.True(ticks[0].Sequence < ticks[1].Sequence && ticks[1].Sequence < ticks[2].Sequence);
    }
}
