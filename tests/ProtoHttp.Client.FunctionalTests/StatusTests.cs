using System.Net;
using System.Net.Http.Headers;
using Grpc.Core;
using Northwind;
using ProtoHttp.Client.FunctionalTests.Infrastructure;
using ProtoHttp.Client.FunctionalTests.Protos;
using ProtoService;

namespace ProtoHttp.Client.FunctionalTests;

/// <summary>Every row of docs/protocol.md section 5's status table arrives through the generated client as the right status and detail.</summary>
public sealed class StatusTests(ServerFixture server) : IClassFixture<ServerFixture>
{
    // docs/protocol.md section 5's table, written out here (gRPC's numbers from its doc/statuscodes.md), not read from
    // ProtoHttp's mapping, whose answers this test checks.
    private static readonly (int Number, string Name, int Http)[] Table =
    [
        (1, "CANCELLED", 499), (2, "UNKNOWN", 500), (3, "INVALID_ARGUMENT", 400), (4, "DEADLINE_EXCEEDED", 504), (5, "NOT_FOUND", 404),
        (6, "ALREADY_EXISTS", 409), (7, "PERMISSION_DENIED", 403), (8, "RESOURCE_EXHAUSTED", 429), (9, "FAILED_PRECONDITION", 400),
        (10, "ABORTED", 409), (11, "OUT_OF_RANGE", 400), (12, "UNIMPLEMENTED", 501), (13, "INTERNAL", 500), (14, "UNAVAILABLE", 503),
        (15, "DATA_LOSS", 500), (16, "UNAUTHENTICATED", 401),
    ];

    public static TheoryData<int, string, int, string> EveryCodeInEveryFormat()
    {
        var data = new TheoryData<int, string, int, string>();
        foreach (var (number, name, http) in Table)
        {
            data.Add(number, name, http, CodecNames.Protobuf);
            data.Add(number, name, http, CodecNames.Json);
            data.Add(number, name, http, CodecNames.Xml);
        }

        return data;
    }

    [Fact]
    public void TheTableHasEveryStatusButOk() =>
        Assert.Equal(Enum.GetValues<StatusCode>().Where(c => c != StatusCode.OK).Select(c => (int)c).Order(), Table.Select(t => t.Number));

    [Theory]
    [MemberData(nameof(EveryCodeInEveryFormat))]
    public async Task AnRpcExceptionArrivesWithItsStatusAndDetail(int number, string name, int http, string format)
    {
        var handler = new RewritingHandler();
        using var clients = new ClientFactory(server.Address, format, handler);

        var ex = await Assert.ThrowsAsync<RpcException>(() => clients.Test.FailAsync(new FailRequest { Code = name, Detail = $"Failed with {name}." }).ResponseAsync);

        Assert.Equal(number, (int)ex.StatusCode);
        Assert.Equal($"Failed with {name}.", ex.Status.Detail);
        Assert.Equal(http, (int?)handler.LastStatus);
    }

    [Theory]
    [EveryFormat]
    public async Task MarkupInTheDetailArrivesIntact(string format)
    {
        using var clients = new ClientFactory(server.Address, format);

        var ex = await Assert.ThrowsAsync<RpcException>(() => clients.Test.FailAsync(new FailRequest { Code = "ABORTED", Detail = "<Aborted> & \"quoted\"." }).ResponseAsync);

        Assert.Equal(StatusCode.Aborted, ex.StatusCode);
        Assert.Equal("<Aborted> & \"quoted\".", ex.Status.Detail);
    }

    [Fact]
    public async Task AnotherExceptionIsUnknownWithTheFixedSentence()
    {
        var handler = new RewritingHandler();
        using var clients = new ClientFactory(server.Address, handler: handler);

        var ex = await Assert.ThrowsAsync<RpcException>(() => clients.Test.FailAsync(new FailRequest()).ResponseAsync);

        Assert.Equal(StatusCode.Unknown, ex.StatusCode);
        Assert.Equal("The service failed to handle the call.", ex.Status.Detail);
        Assert.Equal(HttpStatusCode.InternalServerError, handler.LastStatus);
    }

    [Fact]
    public async Task AMissingRequiredFieldIsInvalidArgument()
    {
        using var clients = new ClientFactory(server.Address);

        var ex = await Assert.ThrowsAsync<RpcException>(() => clients.Search.SearchAsync(new SearchRequest()).ResponseAsync);

        Assert.Equal(StatusCode.InvalidArgument, ex.StatusCode);
        Assert.Equal("Missing required field 'query'.", ex.Status.Detail);
    }

    [Fact]
    public async Task AnUnreadableBodyIsInvalidArgument()
    {
        using var clients = new ClientFactory(server.Address, handler: new RewritingHandler(request => request.Content = Body([0xFF, 0xFF, 0xFF], "application/x-protobuf")));

        var ex = await Assert.ThrowsAsync<RpcException>(() => clients.Search.SearchAsync(new SearchRequest { Query = "chai" }).ResponseAsync);

        Assert.Equal(StatusCode.InvalidArgument, ex.StatusCode);
        Assert.StartsWith("The protobuf body is not a valid SearchRequest", ex.Status.Detail, StringComparison.Ordinal);
    }

    [Fact]
    public async Task AnUnknownMethodIsNotFound()
    {
        using var clients = new ClientFactory(server.Address);
        var marshaller = Marshallers.Create<SearchRequest>(_ => [], _ => new SearchRequest());
        var method = new Method<SearchRequest, SearchResponse>(MethodType.Unary, "ProtoService.SearchService", "Lookup", marshaller,
            Marshallers.Create<SearchResponse>(_ => [], _ => new SearchResponse()));

        var ex = await Assert.ThrowsAsync<RpcException>(() => clients.Invoker.AsyncUnaryCall(method, null, default, new SearchRequest { Query = "chai" }).ResponseAsync);

        Assert.Equal(StatusCode.NotFound, ex.StatusCode);
        Assert.Equal("Method 'Lookup' not found.", ex.Status.Detail);
    }

    [Fact]
    public async Task AVerbNotAllowedIsUnimplemented()
    {
        using var clients = new ClientFactory(server.Address, handler: new RewritingHandler(request => request.Method = HttpMethod.Put));

        var ex = await Assert.ThrowsAsync<RpcException>(() => clients.Search.SearchAsync(new SearchRequest { Query = "chai" }).ResponseAsync);

        Assert.Equal(StatusCode.Unimplemented, ex.StatusCode);
        Assert.Contains("PUT", ex.Status.Detail, StringComparison.Ordinal);
    }

    [Fact]
    public async Task AnUnreadableMediaTypeIsInvalidArgument()
    {
        using var clients = new ClientFactory(server.Address, handler: new RewritingHandler(request => request.Content!.Headers.ContentType = new MediaTypeHeaderValue("text/plain")));

        var ex = await Assert.ThrowsAsync<RpcException>(() => clients.Search.SearchAsync(new SearchRequest { Query = "chai" }).ResponseAsync);

        Assert.Equal(StatusCode.InvalidArgument, ex.StatusCode);
        Assert.Contains("text/plain", ex.Status.Detail, StringComparison.Ordinal);
    }

    [Fact]
    public async Task NoAcceptableFormatIsInvalidArgument()
    {
        using var clients = new ClientFactory(server.Address, handler: new RewritingHandler(request =>
        {
            request.Headers.Accept.Clear();
            request.Headers.Accept.ParseAdd("image/png");
        }));

        var ex = await Assert.ThrowsAsync<RpcException>(() => clients.Search.SearchAsync(new SearchRequest { Query = "chai" }).ResponseAsync);

        Assert.Equal(StatusCode.InvalidArgument, ex.StatusCode);
        Assert.Contains("application/x-protobuf", ex.Status.Detail, StringComparison.Ordinal);
    }

    [Fact]
    public async Task ABadConnectTimeoutIsInvalidArgument()
    {
        using var clients = new ClientFactory(server.Address, handler: new RewritingHandler(request => request.Headers.TryAddWithoutValidation("Connect-Timeout-Ms", "soon")));

        var ex = await Assert.ThrowsAsync<RpcException>(() => clients.Search.SearchAsync(new SearchRequest { Query = "chai" }).ResponseAsync);

        Assert.Equal(StatusCode.InvalidArgument, ex.StatusCode);
        Assert.Equal("The Connect-Timeout-Ms header must be 1 to 10 digits of milliseconds, not 'soon'.", ex.Status.Detail);
    }

    [Fact]
    public async Task ABodyOverTheLimitIsResourceExhausted()
    {
        using var clients = new ClientFactory(server.Address);
        var tooLarge = new OrderList { Orders = { new Order { ShipName = new string('x', 5 * 1024 * 1024) } } };

        var ex = await Assert.ThrowsAsync<RpcException>(() => clients.Northwind.RoundtripAsync(tooLarge).ResponseAsync);

        Assert.Equal(StatusCode.ResourceExhausted, ex.StatusCode);
        Assert.Contains("4194304", ex.Status.Detail, StringComparison.Ordinal);
    }

    private static ByteArrayContent Body(byte[] bytes, string contentType)
    {
        var content = new ByteArrayContent(bytes);
        content.Headers.ContentType = new MediaTypeHeaderValue(contentType);
        return content;
    }
}
