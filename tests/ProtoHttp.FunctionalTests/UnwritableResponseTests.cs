using System.Net;
using System.Xml.Linq;
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
        Assert.Empty(await _server.Logs.ErrorsOnceEndedAsync());
    }

    public static TheoryData<string, Func<HttpRequestMessage>, HttpStatusCode, string, string> ErrorsXmlCannotCarry() => new()
    {
        {
            "an RpcException detail",
            () => Wire.Post("/test_service.proto/Fail", new FailRequest { Code = "NOT_FOUND", Detail = "no\u0000pe \u0001 bell\u0007 \uFFFF" }, "application/json", "application/xml"),
            HttpStatusCode.NotFound, "NOT_FOUND", "no\uFFFDpe \uFFFD bell\uFFFD \uFFFD"
        },
        {
            "a rejected query key",
            () => WithAccept(new HttpRequestMessage(HttpMethod.Get, "/ProtoService.proto/Search?qu%01ery=chai"), "application/xml"),
            HttpStatusCode.BadRequest, "INVALID_ARGUMENT", "qu\uFFFDery"
        },
        {
            "an unknown method name",
            () => WithAccept(new HttpRequestMessage(HttpMethod.Post, "/ProtoService.proto/N%01pe"), "application/xml"),
            HttpStatusCode.NotFound, "NOT_FOUND", "Method 'N\uFFFDpe' not found."
        },
    };

    [Theory]
    [MemberData(nameof(ErrorsXmlCannotCarry))]
    public async Task AnErrorTextXmlCannotCarryKeepsXmlWithReplacementCharacters(string path, Func<HttpRequestMessage> request, HttpStatusCode status, string code, string text)
    {
        using var response = await _server.Client.SendAsync(request());

        Assert.True(status == response.StatusCode, $"{path}: got {(int)response.StatusCode}");
        Assert.Equal("application/xml", response.Content.Headers.ContentType?.MediaType);
        var root = XDocument.Parse(await response.Content.ReadAsStringAsync()).Root!;
        Assert.Equal("root", root.Name.LocalName);
        Assert.Equal(code, (string?)root.Element("code"));
        Assert.Contains(text, (string?)root.Element("error_text"), StringComparison.Ordinal);
    }

    [Theory]
    [InlineData("application/json")]
    [InlineData("application/x-protobuf")]
    public async Task FormatsThatCarryControlCharactersKeepThem(string accept)
    {
        using var response = await _server.Client.SendAsync(Wire.Post("/test_service.proto/Fail", new FailRequest { Code = "NOT_FOUND", Detail = "no\u0000pe\u0001" }, "application/json", accept));

        await ErrorTests.AssertErrorAsync(response, HttpStatusCode.NotFound, "NOT_FOUND", "no\u0000pe\u0001", accept);
    }

    private static HttpRequestMessage WithAccept(HttpRequestMessage request, string accept)
    {
        request.Headers.TryAddWithoutValidation("Accept", accept);
        return request;
    }
}
