using System.Net;
using Google.Protobuf;
using Microsoft.AspNetCore.Hosting;
using Northwind;
using ProtoHttp.FunctionalTests.Infrastructure;

namespace ProtoHttp.FunctionalTests;

/// <summary>
/// Bodies on both sides of the size parsed in place in Kestrel's request pipe, over HTTP/1.1 and h2c, with Kestrel's
/// default buffer limits and with the smallest it allows: none may stall waiting for room the pipe will not make.
/// </summary>
public sealed class BodyBufferingTests
{
    public static TheoryData<int, bool> Sizes()
    {
        var sizes = new TheoryData<int, bool>();
        foreach (var size in new[] { 20_000, 100_000, 300_000, 1_500_000 })
        {
            sizes.Add(size, false);
            sizes.Add(size, true);
        }

        return sizes;
    }

    [Theory]
    [MemberData(nameof(Sizes))]
    public async Task EveryBodySizeRoundTripsWithKestrelsDefaults(int size, bool http2)
    {
        await using var server = await SampleServer.StartAsync();

        await AssertRoundTripAsync(server, size, http2);
    }

    [Theory]
    [MemberData(nameof(Sizes))]
    public async Task EveryBodySizeRoundTripsWithKestrelsSmallestBuffers(int size, bool http2)
    {
        await using var server = await SampleServer.StartAsync(configure: builder => builder.WebHost.ConfigureKestrel(kestrel =>
        {
            kestrel.Limits.MaxRequestBufferSize = 32 * 1024; // No smaller than the largest request header allowed.
            kestrel.Limits.Http2.InitialStreamWindowSize = 65_535;
            kestrel.Limits.Http2.InitialConnectionWindowSize = 65_535;
        }));

        await AssertRoundTripAsync(server, size, http2);
    }

    private static async Task AssertRoundTripAsync(SampleServer server, int size, bool http2)
    {
        var body = OrdersOfSize(size).ToByteArray();
        using var client = http2 ? server.CreateHttp2Client() : new HttpClient { BaseAddress = server.Http1Address };
        client.Timeout = TimeSpan.FromSeconds(20); // A stalled upload fails the test instead of hanging it.
        using var content = new ByteArrayContent(body);
        content.Headers.ContentType = new("application/x-protobuf");

        using var response = await client.PostAsync("/Northwind.proto/Roundtrip", content);

        Assert.Equal(HttpStatusCode.OK, response.StatusCode);
        Assert.Equal(http2 ? HttpVersion.Version20 : HttpVersion.Version11, response.Version);
        Assert.Equal(body, await response.Content.ReadAsByteArrayAsync());
    }

    private static OrderList OrdersOfSize(int bytes)
    {
        var list = new OrderList();
        var order = new Order { OrderId = 1, ShipName = new string('n', 1000) };
        while (list.CalculateSize() + order.CalculateSize() + 3 < bytes)
        {
            list.Orders.Add(order.Clone());
        }

        return list;
    }
}
