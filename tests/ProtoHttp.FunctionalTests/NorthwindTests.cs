using System.Net;
using Northwind;
using ProtoHttp.FunctionalTests.Infrastructure;
using Xunit.Abstractions;

namespace ProtoHttp.FunctionalTests;

public sealed class NorthwindTests(SampleServerFixture fixture, ITestOutputHelper output) : IClassFixture<SampleServerFixture>
{
    private readonly SampleServer _server = fixture.Server;

    [Theory]
    [InlineData("application/x-protobuf")]
    [InlineData("application/json")]
    public async Task GetOrdersReturnsAll830OrdersWith2155Lines(string format)
    {
        using var response = await _server.Client.SendAsync(Wire.Post("/Northwind.proto/GetOrders", new OrdersRequest(), format));

        Assert.Equal(HttpStatusCode.OK, response.StatusCode);
        output.WriteLine($"GetOrders as {format}: {response.Content.Headers.ContentLength} bytes");
        var orders = await Wire.ReadAsync<OrderList>(response);
        Assert.Equal(830, orders.Orders.Count);
        Assert.Equal(2155, orders.Orders.Sum(o => o.Lines.Count));
        var first = orders.Orders[0];
        Assert.Equal(10248, first.OrderId);
        Assert.Equal("VINET", first.CustomerId);
        Assert.Equal(new DateTime(1996, 7, 4, 0, 0, 0, DateTimeKind.Utc), first.OrderDate.ToDateTime());
        Assert.Equal(32.3800011, first.Freight, 7);
        Assert.Equal(3, first.Lines.Count);
    }

    [Fact]
    public async Task BothFormatsCarryTheSameOrders()
    {
        using var binary = await _server.Client.SendAsync(Wire.Post("/Northwind.proto/GetOrders", new OrdersRequest(), "application/x-protobuf"));
        using var json = await _server.Client.SendAsync(Wire.Post("/Northwind.proto/GetOrders", new OrdersRequest(), "application/json"));

        Assert.Equal(await Wire.ReadAsync<OrderList>(binary), await Wire.ReadAsync<OrderList>(json));
    }

    [Fact]
    public async Task RoundtripEchoesTheOrdersInEitherFormat()
    {
        using var all = await _server.Client.SendAsync(Wire.Post("/Northwind.proto/GetOrders", new OrdersRequest(), "application/x-protobuf"));
        var orders = await Wire.ReadAsync<OrderList>(all);

        using var echoed = await _server.Client.SendAsync(Wire.Post("/Northwind.proto/Roundtrip", orders, "application/json", "application/x-protobuf"));

        Assert.Equal(orders, await Wire.ReadAsync<OrderList>(echoed));
    }
}
