using System.Net;
using Grpc.Core;
using Northwind;
using ProtoHttp.Client.FunctionalTests.Infrastructure;
using ProtoHttp.Client.FunctionalTests.Protos;

namespace ProtoHttp.Client.FunctionalTests;

/// <summary>
/// Bidirectional calls through the generated clients over h2c: each answer arrives while the request stream is still
/// open, on ProtoHttp's paths and Connect's; over HTTP/1.1 the call fails with a status that says why.
/// </summary>
public sealed class DuplexStreamingTests(ServerFixture server) : IClassFixture<ServerFixture>
{
    [Theory]
    [MemberData(nameof(StreamClients.OverHttp2), MemberType = typeof(StreamClients))]
    public async Task EachLineIsQuotedAsItIsSent(string protocol, string format)
    {
        using var clients = new StreamClients(server, protocol, format, http2: true);

        using var call = clients.Streams.QuoteLines();
        await QuoteOneAtATimeAsync(call);
    }

    /// <summary>Quotes three lines on one open call, each answered before the next is sent, then ends it well.</summary>
    internal static async Task QuoteOneAtATimeAsync(AsyncDuplexStreamingCall<OrderLine, Quote> call)
    {
        var quotes = new List<Quote>();
        foreach (var (product, quantity) in new[] { (1, 10), (2, 5), (11, 1) })
        {
            // One at a time: the answer to each line arrives before the next line is sent.
            await call.RequestStream.WriteAsync(new OrderLine { ProductId = product, Quantity = quantity });
            Assert.True(await call.ResponseStream.MoveNext(CancellationToken.None));
            quotes.Add(call.ResponseStream.Current);
        }

        await call.RequestStream.CompleteAsync();

        Assert.False(await call.ResponseStream.MoveNext(CancellationToken.None));
        Assert.Equal([1, 2, 11], quotes.Select(q => q.ProductId));
        Assert.Equal([10, 5, 1], quotes.Select(q => q.Quantity));
        Assert.All(quotes, q => Assert.True(q.UnitPrice > 0));
        Assert.Equal(StatusCode.OK, call.GetStatus().StatusCode);
    }

    [Theory]
    [MemberData(nameof(StreamClients.OverHttp2), MemberType = typeof(StreamClients))]
    public async Task AnEmptyCallEndsWell(string protocol, string format)
    {
        using var clients = new StreamClients(server, protocol, format, http2: true);

        using var call = clients.Test.Twice();
        await call.RequestStream.CompleteAsync();

        Assert.False(await call.ResponseStream.MoveNext(CancellationToken.None));
        Assert.Equal(StatusCode.OK, call.GetStatus().StatusCode);
    }

    [Theory]
    [MemberData(nameof(StreamClients.OverHttp2), MemberType = typeof(StreamClients))]
    public async Task AFailureAfterTheFirstAnswerEndsTheCallWithItsTrailers(string protocol, string format)
    {
        using var clients = new StreamClients(server, protocol, format, http2: true);

        using var call = clients.Test.Twice();
        await FailAfterTheFirstAnswerAsync(call);
    }

    /// <summary>Sends 21 (answered 42), then -1, which the service fails with its status and a trailer.</summary>
    internal static async Task FailAfterTheFirstAnswerAsync(AsyncDuplexStreamingCall<Number, Number> call)
    {
        await call.RequestStream.WriteAsync(new Number { Value = 21 });
        Assert.True(await call.ResponseStream.MoveNext(CancellationToken.None));
        await call.RequestStream.WriteAsync(new Number { Value = -1 });
        var ex = await Assert.ThrowsAsync<RpcException>(() => call.ResponseStream.MoveNext(CancellationToken.None));

        Assert.Equal(42, call.ResponseStream.Current.Value);
        Assert.Equal(StatusCode.InvalidArgument, ex.StatusCode);
        Assert.Equal("-1 is negative.", ex.Status.Detail);
        Assert.Equal("1", call.GetTrailers().GetValue("failed-at"));

        // The call is over: the request stream says so instead of writing into nothing.
        var write = await Assert.ThrowsAsync<RpcException>(() => call.RequestStream.WriteAsync(new Number { Value = 1 }));
        Assert.Equal(StatusCode.InvalidArgument, write.StatusCode);
    }

    [Theory]
    [MemberData(nameof(StreamClients.OverHttp2), MemberType = typeof(StreamClients))]
    public async Task AFailureBeforeTheFirstAnswerArrives(string protocol, string format)
    {
        using var clients = new StreamClients(server, protocol, format, http2: true);

        using var call = clients.Streams.QuoteLines();
        await call.RequestStream.WriteAsync(new OrderLine { ProductId = 9999, Quantity = 1 });
        var ex = await Assert.ThrowsAsync<RpcException>(() => call.ResponseStream.MoveNext(CancellationToken.None));

        Assert.Equal(StatusCode.NotFound, ex.StatusCode);
        Assert.Equal("There is no product 9999.", ex.Status.Detail);
    }

    [Theory]
    [InlineData(ProtocolNames.ProtoHttp)]
    [InlineData(ProtocolNames.Connect)]
    public async Task OverHttp1TheCallFailsSayingItNeedsHttp2(string protocol)
    {
        // An HttpClient left at HTTP/1.1: the invoker asks for HTTP/2 anyway, which this endpoint does not speak.
        using var clients = new StreamClients(server, protocol, CodecNames.Protobuf, http2: false);

        using var call = clients.Streams.QuoteLines();
        var ex = await Assert.ThrowsAsync<RpcException>(() => call.ResponseStream.MoveNext(CancellationToken.None));

        Assert.Equal(StatusCode.Unimplemented, ex.StatusCode);
        Assert.Contains("is bidirectional, which needs HTTP/2", ex.Status.Detail);
        await Assert.ThrowsAsync<RpcException>(() => call.RequestStream.WriteAsync(new OrderLine { ProductId = 1 }));
    }

    [Fact]
    public async Task AServerThatAnswers505IsReadAsItsError()
    {
        // A handler that sends the call as HTTP/1.1 whatever the invoker asked: the server's own 505 comes back.
        using var handler = new RewritingHandler(request =>
        {
            request.Version = HttpVersion.Version11;
            request.VersionPolicy = HttpVersionPolicy.RequestVersionExact;
        });
        using var http = new HttpClient(handler);
        var streams = new NorthwindStreams.NorthwindStreamsClient(new ProtoHttpCallInvoker(http, new ProtoHttpClientOptions { Address = server.Address }));

        using var call = streams.QuoteLines();
        await call.RequestStream.CompleteAsync();
        var ex = await Assert.ThrowsAsync<RpcException>(() => call.ResponseStream.MoveNext(CancellationToken.None));

        Assert.Equal(HttpStatusCode.HttpVersionNotSupported, handler.LastStatus);
        Assert.Equal(StatusCode.Unimplemented, ex.StatusCode);
        Assert.Contains("needs HTTP/2", ex.Status.Detail);
    }
}
