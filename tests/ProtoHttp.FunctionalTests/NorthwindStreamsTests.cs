using System.Net;
using System.Net.Http.Headers;
using Microsoft.Extensions.DependencyInjection;
using Northwind;
using ProtoHttp.FunctionalTests.Infrastructure;
using SearchService.Streams;

namespace ProtoHttp.FunctionalTests;

/// <summary>The sample's streams: the shared price feed, the bounded replay, the upload and the quotes.</summary>
public sealed class NorthwindStreamsTests : IAsyncLifetime
{
    private const string Prefix = "/NorthwindStreams.proto/";

    private SampleServer _server = null!;
    private HttpClient _http2 = null!;

    public async Task InitializeAsync()
    {
        _server = await SampleServer.StartAsync(configure: builder =>
            builder.Services.Configure<PriceTickerOptions>(o => o.Interval = TimeSpan.FromMilliseconds(20)));
        _http2 = _server.CreateHttp2Client();
    }

    public async Task DisposeAsync()
    {
        _http2.Dispose();
        await _server.DisposeAsync();
    }

    [Fact]
    public async Task ReplayOrdersStreamsAll830AndEnds()
    {
        using var response = await _server.Client.SendAsync(WithAccept(new HttpRequestMessage(HttpMethod.Get, Prefix + "ReplayOrders"), StreamWire.Events));

        var (orders, end) = await StreamWire.ReadAllAsync<Order>(response);
        Assert.Equal(830, orders.Count);
        Assert.Equal(10248, orders[0].OrderId);
        Assert.Equal(orders.Select(o => o.OrderId).Order(), orders.Select(o => o.OrderId));
        Assert.Equal("OK", end.Code);
    }

    [Fact]
    public async Task EverySubscriberReceivesTheSameTicksOfTheOneTicker()
    {
        using var events = await _server.Client.SendAsync(
            WithAccept(new HttpRequestMessage(HttpMethod.Get, Prefix + "WatchPrices"), StreamWire.Events), HttpCompletionOption.ResponseHeadersRead);
        using var envelopes = await new StreamingClient(_http2, http2: true).SendAsync(
            WithAccept(new HttpRequestMessage(HttpMethod.Get, Prefix + "WatchPrices"), StreamWire.ConnectProto), HttpCompletionOption.ResponseHeadersRead);

        var first = await TakeAsync(events, 30);
        var second = await TakeUntilAsync(envelopes, first[^1].Sequence);

        // Both subscribed before either read: from the later one's first tick on, they saw the same ticks.
        var shared = first.Where(t => t.Sequence >= second[0].Sequence).ToList();
        Assert.NotEmpty(shared);
        Assert.Equal(shared, second.Where(t => t.Sequence <= first[^1].Sequence));
        Assert.All(first.Zip(first.Skip(1)), pair => Assert.True(pair.Second.Sequence > pair.First.Sequence));
    }

    [Fact]
    public async Task WatchPricesKeepsToTheProductsAsked()
    {
        using var response = await _server.Client.SendAsync(
            WithAccept(new HttpRequestMessage(HttpMethod.Get, Prefix + "WatchPrices?product_id=1&product_id=2"), StreamWire.Lines), HttpCompletionOption.ResponseHeadersRead);

        var ticks = await TakeAsync(response, 2);
        Assert.All(ticks, t => Assert.InRange(t.ProductId, 1, 2));
    }

    [Theory]
    [InlineData(false)]
    [InlineData(true)]
    public async Task UploadOrdersAnswersTheirSummary(bool http2)
    {
        var line = new OrderLine { ProductId = 11, UnitPrice = 14, Quantity = 2 };
        var body = new[] { new Order { OrderId = 1, Lines = { line } }, new Order { OrderId = 2, Lines = { line, line } } }
            .SelectMany(o => StreamWire.Envelope(o, StreamWire.ConnectProto)).ToArray();
        var content = new ByteArrayContent(body);
        content.Headers.ContentType = MediaTypeHeaderValue.Parse(StreamWire.ConnectProto);

        var client = new StreamingClient(http2 ? _http2 : _server.Client, http2);
        using var response = await client.SendAsync(new HttpRequestMessage(HttpMethod.Post, Prefix + "UploadOrders") { Content = content });

        var (summaries, end) = await StreamWire.ReadAllAsync<UploadSummary>(response);
        var summary = Assert.Single(summaries);
        Assert.Equal(2, summary.Orders);
        Assert.Equal(3, summary.Lines);
        Assert.Equal(84, summary.Total);
        Assert.Equal("OK", end.Code);
    }

    [Fact]
    public async Task QuoteLinesAnswersEachLineAndNamesAnUnknownProduct()
    {
        var body = new[] { new OrderLine { ProductId = 1, Quantity = 3 }, new OrderLine { ProductId = 999, Quantity = 1 } }
            .SelectMany(l => StreamWire.Envelope(l, StreamWire.ConnectJson)).ToArray();
        var content = new ByteArrayContent(body);
        content.Headers.ContentType = MediaTypeHeaderValue.Parse(StreamWire.ConnectJson);

        using var response = await new StreamingClient(_http2, http2: true).SendAsync(
            WithAccept(new HttpRequestMessage(HttpMethod.Post, Prefix + "QuoteLines") { Content = content }, StreamWire.Events));

        Assert.Equal(HttpStatusCode.OK, response.StatusCode);
        var (quotes, end) = await StreamWire.ReadAllAsync<Quote>(response);
        var quote = Assert.Single(quotes);
        Assert.Equal(1, quote.ProductId);
        Assert.True(quote.UnitPrice > 0);
        Assert.Equal("NOT_FOUND", end.Code);
        Assert.Equal("There is no product 999.", end.ErrorText);
    }

    private static HttpRequestMessage WithAccept(HttpRequestMessage request, string accept)
    {
        request.Headers.TryAddWithoutValidation("Accept", accept);
        return request;
    }

    private static async Task<List<PriceTick>> TakeAsync(HttpResponseMessage response, int count)
    {
        var ticks = new List<PriceTick>();
        await foreach (var record in StreamWire.ReadAsync<PriceTick>(response))
        {
            ticks.Add(record.Message!);
            if (ticks.Count == count)
            {
                break;
            }
        }

        return ticks;
    }

    private static async Task<List<PriceTick>> TakeUntilAsync(HttpResponseMessage response, long sequence)
    {
        var ticks = new List<PriceTick>();
        await foreach (var record in StreamWire.ReadAsync<PriceTick>(response))
        {
            ticks.Add(record.Message!);
            if (record.Message!.Sequence >= sequence)
            {
                break;
            }
        }

        return ticks;
    }
}
