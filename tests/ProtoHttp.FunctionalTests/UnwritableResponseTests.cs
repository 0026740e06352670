using System.Net;
using Northwind;
using ProtoHttp.FunctionalTests.Infrastructure;
using ProtoHttp.FunctionalTests.Protos;

namespace ProtoHttp.FunctionalTests;

/// <summary>Valid messages holding characters XML 1.0 cannot carry: never broken XML, never a 500.</summary>
public sealed class UnwritableResponseTests(SampleServerFixture fixture) : IClassFixture<SampleServerFixture>
{
    private readonly SampleServer _server = fixture.Server;

    [Fact]
    public async Task AResponseXmlCannotCarryIs406InJsonNamingTheField()
    {
        var orders = new OrderList { Orders = { new Order { OrderId = 1, ShipName = "bell\u0007" } } };

        using var response = await _server.Client.SendAsync(Wire.Post("/Northwind.proto/Roundtrip", orders, "application/x-protobuf", "application/xml"));

        var error = await ErrorTests.AssertErrorAsync(response, HttpStatusCode.NotAcceptable, "INVALID_ARGUMENT");
        Assert.Equal("Field 'Northwind.Order.ship_name' holds U+0007, a character XML 1.0 cannot carry; ask for JSON or protobuf instead.", error.ErrorText);
        Assert.Empty(_server.Logs.Errors);
    }

    [Fact]
    public async Task AnErrorDetailXmlCannotCarryGoesOutInJson()
    {
        using var response = await _server.Client.SendAsync(Wire.Post("/test_service.proto/Fail", new FailRequest { Code = "NOT_FOUND", Detail = "no\u0000pe" }, "application/json", "application/xml"));

        await ErrorTests.AssertErrorAsync(response, HttpStatusCode.NotFound, "NOT_FOUND", "no\u0000pe");
    }
}
