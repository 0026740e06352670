using Grpc.Core;
using Northwind;
using ProtoHttp.Client.FunctionalTests.Infrastructure;
using ProtoHttp.Client.FunctionalTests.Protos;

namespace ProtoHttp.Client.FunctionalTests;

/// <summary>
/// Client-streaming and bidirectional calls over WebSocket (<see cref="ProtoHttpClientOptions.RequestStreamsOverWebSocket"/>,
/// docs/protocol.md section 13) at the sample's endpoint that speaks only HTTP/1.1 (Kestrel with Protocols=Http1),
/// where the same bidirectional call over a request body cannot be made.
/// </summary>
public sealed class WebSocketStreamingTests(ServerFixture server) : IClassFixture<ServerFixture>
{
    private NorthwindStreams.NorthwindStreamsClient Streams(HttpClient http, string codec = CodecNames.Protobuf) =>
        new(new ProtoHttpCallInvoker(http, new ProtoHttpClientOptions { Address = server.Address, Codec = codec, RequestStreamsOverWebSocket = true }));

    [Theory]
    [InlineData(CodecNames.Protobuf)]
    [InlineData(CodecNames.Json)]
    public async Task ABidirectionalCallCompletesOverHttp1(string codec)
    {
        using var http = new HttpClient();
        using var call = Streams(http, codec).QuoteLines();

        // Both directions at once over HTTP/1.1: each answer arrives while the request stream is still open.
        await DuplexStreamingTests.QuoteOneAtATimeAsync(call);
        Assert.Equal("protohttp+" + codec, (await call.ResponseHeadersAsync).GetValue("sec-websocket-protocol"));
    }

    [Fact]
    public async Task WithoutTheOptionTheSameCallCannotBeMadeThere()
    {
        using var http = new HttpClient();
        var client = new NorthwindStreams.NorthwindStreamsClient(new ProtoHttpCallInvoker(http, new ProtoHttpClientOptions { Address = server.Address }));
        using var call = client.QuoteLines();

        var ex = await Assert.ThrowsAsync<RpcException>(async () =>
        {
            await call.RequestStream.WriteAsync(new OrderLine { ProductId = 1, Quantity = 1 });
            await call.ResponseStream.MoveNext(CancellationToken.None);
        });
        Assert.Equal(StatusCode.Unimplemented, ex.StatusCode);
    }

    [Fact]
    public async Task AClientStreamingCallSendsItsStreamAndReadsTheAnswer()
    {
        using var http = new HttpClient();
        using var call = Streams(http).UploadOrders();
        for (var i = 0; i < 3; i++)
        {
            await call.RequestStream.WriteAsync(new Order { OrderId = i, Lines = { new OrderLine { ProductId = 1, Quantity = 2, UnitPrice = 10 } } });
        }

        await call.RequestStream.CompleteAsync();
        var summary = await call;

        Assert.Equal(3, summary.Orders);
        Assert.Equal(60, summary.Total, 3);
    }

    [Fact]
    public async Task AFailureEndsTheCallWithItsStatusAndTrailers()
    {
        using var http = new HttpClient();
        var client = new ClientTestService.ClientTestServiceClient(
            new ProtoHttpCallInvoker(http, new ProtoHttpClientOptions { Address = server.Address, RequestStreamsOverWebSocket = true }));
        using var call = client.Twice();
        await DuplexStreamingTests.FailAfterTheFirstAnswerAsync(call);
    }

    [Fact]
    public async Task TheDeadlineTravelsWithTheUpgrade()
    {
        using var http = new HttpClient();
        using var call = Streams(http).QuoteLines(deadline: DateTime.UtcNow.AddSeconds(3));
        await call.RequestStream.WriteAsync(new OrderLine { ProductId = 1, Quantity = 1 });
        Assert.True(await call.ResponseStream.MoveNext(CancellationToken.None));

        // The request stream stays open: the deadline ends the call.
        var ex = await Assert.ThrowsAsync<RpcException>(() => call.ResponseStream.MoveNext(CancellationToken.None));
        Assert.Equal(StatusCode.DeadlineExceeded, ex.StatusCode);
    }

    [Fact]
    public void OnlyProtoHttpsOwnProtocolGoesOverWebSocket()
    {
        using var http = new HttpClient();
        Assert.Throws<InvalidOperationException>(() => new ProtoHttpCallInvoker(http,
            new ProtoHttpClientOptions { Address = server.Address, Protocol = ProtocolNames.Connect, RequestStreamsOverWebSocket = true }));
    }
}
