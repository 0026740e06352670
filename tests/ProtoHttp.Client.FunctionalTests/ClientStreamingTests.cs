using Grpc.Core;
using Microsoft.Extensions.DependencyInjection;
using Northwind;
using ProtoHttp.Client.FunctionalTests.Infrastructure;
using ProtoHttp.Client.FunctionalTests.Protos;
using SearchService.Catalog;

namespace ProtoHttp.Client.FunctionalTests;

/// <summary>
/// Client-streaming calls through the generated clients: the request stream goes out envelope by envelope, over
/// HTTP/1.1 (chunked) and h2c, on ProtoHttp's paths and Connect's, and the one response arrives with its status.
/// </summary>
public sealed class ClientStreamingTests(ServerFixture server) : IClassFixture<ServerFixture>
{
    [Theory]
    [MemberData(nameof(StreamClients.Everywhere), MemberType = typeof(StreamClients))]
    public async Task TheUploadIsSummedInFull(string protocol, string format, bool http2)
    {
        using var clients = new StreamClients(server, protocol, format, http2);
        var orders = server.Services.GetRequiredService<NorthwindOrders>().All.Orders.Take(20).ToList();

        using var call = clients.Streams.UploadOrders();
        foreach (var order in orders)
        {
            await call.RequestStream.WriteAsync(order);
        }

        await call.RequestStream.CompleteAsync();
        var summary = await call;

        Assert.Equal(20, summary.Orders);
        Assert.Equal(orders.Sum(o => o.Lines.Count), summary.Lines);
        Assert.Equal(orders.Sum(o => o.Lines.Sum(l => (double)l.UnitPrice * l.Quantity * (1 - l.Discount))), summary.Total, 6);
        Assert.Equal(StatusCode.OK, call.GetStatus().StatusCode);
    }

    [Theory]
    [MemberData(nameof(StreamClients.Everywhere), MemberType = typeof(StreamClients))]
    public async Task AnEmptyUploadIsAnswered(string protocol, string format, bool http2)
    {
        using var clients = new StreamClients(server, protocol, format, http2);

        using var call = clients.Test.Sum();
        await call.RequestStream.CompleteAsync();
        var total = await call.ResponseAsync;

        Assert.Equal(new Total(), total);
        Assert.Equal("0", call.GetTrailers().GetValue("x-count"));
    }

    [Theory]
    [MemberData(nameof(StreamClients.Everywhere), MemberType = typeof(StreamClients))]
    public async Task TheResponseFollowsTheMessagesInOrderWithTrailers(string protocol, string format, bool http2)
    {
        using var clients = new StreamClients(server, protocol, format, http2);

        using var call = clients.Test.Sum();
        for (var i = 1; i <= 10; i++)
        {
            await call.RequestStream.WriteAsync(new Number { Value = i });
        }

        await call.RequestStream.CompleteAsync();
        var total = await call.ResponseAsync;

        Assert.Equal(new Total { Count = 10, Sum = 55 }, total);
        Assert.Equal("10", call.GetTrailers().GetValue("x-count"));
        Assert.NotNull(await call.ResponseHeadersAsync);
    }

    [Theory]
    [MemberData(nameof(StreamClients.Everywhere), MemberType = typeof(StreamClients))]
    public async Task AFailureOnTheServerArrivesWithItsTrailers(string protocol, string format, bool http2)
    {
        using var clients = new StreamClients(server, protocol, format, http2);

        using var call = clients.Test.Sum();
        await call.RequestStream.WriteAsync(new Number { Value = 1 });
        await call.RequestStream.WriteAsync(new Number { Value = -2 });
        await CompleteQuietlyAsync(call.RequestStream);
        var ex = await Assert.ThrowsAsync<RpcException>(() => call.ResponseAsync);

        Assert.Equal(StatusCode.InvalidArgument, ex.StatusCode);
        Assert.Equal("-2 is negative.", ex.Status.Detail);
        Assert.Equal("1", ex.Trailers.GetValue("failed-at"));
        Assert.Equal(StatusCode.InvalidArgument, call.GetStatus().StatusCode);
    }

    [Theory]
    [InlineData(false)]
    [InlineData(true)]
    public async Task ARefusalBeforeTheStreamIsReadAsForUnaryCalls(bool http2)
    {
        // The body spoiled on its way out: ProtoHttp's 415 and its ErrorResult come back before any stream.
        using var handler = new RewritingHandler(request => request.Content!.Headers.ContentType = new("application/x-protobuf"));
        using var http = new HttpClient(handler);
        if (http2)
        {
            http.DefaultRequestVersion = System.Net.HttpVersion.Version20;
            http.DefaultVersionPolicy = HttpVersionPolicy.RequestVersionExact;
        }

        var test = new ClientTestService.ClientTestServiceClient(new ProtoHttpCallInvoker(http, new ProtoHttpClientOptions { Address = http2 ? server.Http2Address : server.Address }));

        using var call = test.Sum();
        // The server refuses on the request's headers alone, and over h2c its answer can be back before the first
        // write: that write then throws the call's failure, the one ResponseAsync gives.
        var write = await Record.ExceptionAsync(() => call.RequestStream.WriteAsync(new Number { Value = 1 }));
        await CompleteQuietlyAsync(call.RequestStream);
        var ex = await Assert.ThrowsAsync<RpcException>(() => call.ResponseAsync);

        Assert.Equal(System.Net.HttpStatusCode.UnsupportedMediaType, handler.LastStatus);
        Assert.Equal(StatusCode.InvalidArgument, ex.StatusCode);
        Assert.StartsWith("The Content-Type 'application/x-protobuf' is not an envelope stream", ex.Status.Detail);
        if (write is not null)
        {
            var failedWrite = Assert.IsType<RpcException>(write);
            Assert.Equal((ex.StatusCode, ex.Status.Detail), (failedWrite.StatusCode, failedWrite.Status.Detail));
        }
    }

    [Fact]
    public void XmlHasNoStreamFormat()
    {
        // Connect has no XML at all, so a Connect invoker refuses it up front (ConnectProtocolTests).
        using var http = new HttpClient();
        var options = new ProtoHttpClientOptions { Address = server.Address, Codec = CodecNames.Xml };
        var test = new ClientTestService.ClientTestServiceClient(new ProtoHttpCallInvoker(http, options));

        var ex = Assert.Throws<RpcException>(() => test.Sum());

        Assert.Equal(StatusCode.Unimplemented, ex.StatusCode);
        Assert.StartsWith("/protohttp.clienttests.ClientTestService/Sum is a streaming method, and XML has no stream format", ex.Status.Detail);
    }

    /// <summary>
    /// Ends the request stream of a call the server may have failed already: over HTTP/1.1 the answer is read only
    /// once the body ends, over HTTP/2 the call may be over first.
    /// </summary>
    private static async Task CompleteQuietlyAsync(IClientStreamWriter<Number> requestStream)
    {
        try
        {
            await requestStream.CompleteAsync();
        }
        catch (RpcException)
        {
            // The call has failed: what ResponseAsync says.
        }
    }
}
