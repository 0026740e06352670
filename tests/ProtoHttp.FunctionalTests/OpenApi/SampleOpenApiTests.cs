using System.Text.Json;
using Google.Protobuf.Reflection;
using Microsoft.AspNetCore.Http.Metadata;
using Microsoft.AspNetCore.Routing;
using Microsoft.Extensions.DependencyInjection;
using ProtoHttp.FunctionalTests.Infrastructure;

namespace ProtoHttp.FunctionalTests.OpenApi;

/// <summary>
/// <c>GET /openapi/v1.json</c> on the sample (ASP.NET Core's AddOpenApi with ProtoHttp's transformer): every method of
/// every mapped service on its ProtoHttp route and its Connect path, and the sample's messages in protobuf's JSON mapping.
/// </summary>
public sealed class SampleOpenApiTests(SampleServerFixture fixture) : IClassFixture<SampleServerFixture>
{
    private static readonly string[] FormatSuffixes = [".json", ".xml", ".pb", ".sse", ".ndjson"];

    private readonly SampleServer _server = fixture.Server;

    [Fact]
    public async Task ListsEveryMethodEndpointTheServerMapped()
    {
        var document = await OpenApiDocument.GetAsync(_server.Client);

        // The server's own endpoints are the truth: each with a protobuf method, less the format-suffix twins and those
        // excluded from descriptions (the sample's reflection service).
        var mapped = _server.Services.GetRequiredService<EndpointDataSource>().Endpoints.OfType<RouteEndpoint>()
            .Where(e => e.Metadata.GetMetadata<MethodDescriptor>() is not null
                && e.Metadata.GetMetadata<IExcludeFromDescriptionMetadata>() is not { ExcludeFromDescription: true })
            .Select(e => e.RoutePattern.RawText!)
            .Where(route => !FormatSuffixes.Any(suffix => route.EndsWith(suffix, StringComparison.Ordinal)))
            .Order(StringComparer.Ordinal);
        var described = document.Paths.EnumerateObject().Select(p => p.Name).Order(StringComparer.Ordinal);
        Assert.Equal(mapped, described);
        Assert.Contains("/ProtoService.proto/Search", described);
        Assert.Contains("/Northwind.NorthwindService/GetOrders", described);
        Assert.Contains("/secure/test_service.proto/Slow", described);
    }

    [Theory]
    [InlineData("/ProtoService.proto/Search", "get,post")]
    [InlineData("/Northwind.proto/GetOrders", "get,post")]
    [InlineData("/Northwind.proto/Roundtrip", "get,post")]
    [InlineData("/ProtoService.SearchService/Search", "post")]
    [InlineData("/Northwind.NorthwindService/GetOrders", "get,post")] // NO_SIDE_EFFECTS: Connect allows GET.
    [InlineData("/Northwind.NorthwindService/Roundtrip", "post")]
    [InlineData("/streaming_service.proto/Count", "get,post")] // Server-streaming takes one request, so GET too.
    [InlineData("/streaming_service.proto/Sum", "post")] // Client-streaming: envelopes only.
    public async Task ListsTheVerbsEachPathAnswers(string path, string verbs)
    {
        var document = await OpenApiDocument.GetAsync(_server.Client);

        Assert.Equal(verbs, string.Join(',', document.Paths.GetProperty(path).EnumerateObject().Select(v => v.Name).Order()));
    }

    [Fact]
    public async Task SearchTakesABodyInEveryRequestFormatAndAnswersInEveryResponseFormat()
    {
        var document = await OpenApiDocument.GetAsync(_server.Client);
        var post = document.Operation("/ProtoService.proto/Search", "post");

        var body = post.GetProperty("requestBody").GetProperty("content");
        Assert.Equal(["application/json", "application/x-protobuf", "application/x-www-form-urlencoded", "application/xml"],
            body.EnumerateObject().Select(c => c.Name).Order());
        Assert.All(body.EnumerateObject(), c => SchemaAssert.RefersTo(c.Value.GetProperty("schema"), "ProtoService.SearchRequest"));
        var ok = post.GetProperty("responses").GetProperty("200").GetProperty("content");
        Assert.Equal(["application/json", "application/x-protobuf", "application/xml"], ok.EnumerateObject().Select(c => c.Name).Order());
        Assert.All(ok.EnumerateObject(), c => SchemaAssert.RefersTo(c.Value.GetProperty("schema"), "ProtoService.SearchResponse"));
    }

    [Theory]
    [InlineData("post", "400,406,408,413,415,500,504,default")]
    [InlineData("get", "400,406,500,504,default")]
    public async Task FailuresAreErrorResultsWithTheirStatuses(string verb, string statuses)
    {
        var document = await OpenApiDocument.GetAsync(_server.Client);
        var responses = document.Operation("/ProtoService.proto/Search", verb).GetProperty("responses");

        var errors = responses.EnumerateObject().Where(r => r.Name != "200").ToList();
        Assert.Equal(statuses, string.Join(',', errors.Select(r => r.Name)));
        Assert.All(errors, error => Assert.All(error.Value.GetProperty("content").EnumerateObject(),
            c => SchemaAssert.RefersTo(c.Value.GetProperty("schema"), "protohttp.ErrorResult")));
        SchemaAssert.Is(document.Property("protohttp.ErrorResult", "code"), "string");
        SchemaAssert.Is(document.Property("protohttp.ErrorResult", "errorText"), "string");
    }

    [Fact]
    public async Task SearchOverGetTakesTheQueryParametersTheFormBinderReads()
    {
        var document = await OpenApiDocument.GetAsync(_server.Client);
        var parameters = document.Operation("/ProtoService.proto/Search", "get").GetProperty("parameters").EnumerateArray()
            .Where(p => p.GetProperty("in").GetString() == "query")
            .ToDictionary(p => p.GetProperty("name").GetString()!);

        Assert.Equal(["query", "page_number", "result_per_page"], parameters.Keys);
        Assert.True(parameters["query"].GetProperty("required").GetBoolean()); // proto2 required
        SchemaAssert.Is(parameters["query"].GetProperty("schema"), "string");
        Assert.False(parameters["page_number"].TryGetProperty("required", out var required) && required.GetBoolean());
        SchemaAssert.Is(parameters["page_number"].GetProperty("schema"), "integer", "int32");

        // And the names work: the parameters as described find Chai.
        using var response = await _server.Client.GetAsync("/ProtoService.proto/Search?query=chai&page_number=1&result_per_page=1");
        Assert.Contains("Chai", await response.Content.ReadAsStringAsync());
    }

    [Fact]
    public async Task SearchRequestIsItsJsonMappingFieldByField()
    {
        var document = await OpenApiDocument.GetAsync(_server.Client);

        Assert.Equal(["query", "pageNumber", "resultPerPage"], document.Schema("ProtoService.SearchRequest").GetProperty("properties").EnumerateObject().Select(p => p.Name));
        SchemaAssert.Is(document.Property("ProtoService.SearchRequest", "query"), "string");
        SchemaAssert.Is(document.Property("ProtoService.SearchRequest", "pageNumber"), "integer", "int32");
        SchemaAssert.Is(document.Property("ProtoService.SearchRequest", "resultPerPage"), "integer", "int32");
        Assert.Equal(["query"], document.Schema("ProtoService.SearchRequest").GetProperty("required").EnumerateArray().Select(r => r.GetString()));

        // The proto2 group is a field named in lower case holding the group's message, whose url is required.
        var result = SchemaAssert.ArrayItems(document.Property("ProtoService.SearchResponse", "result"));
        SchemaAssert.RefersTo(result, "ProtoService.SearchResponse.Result");
        Assert.Equal(["url"], document.Schema("ProtoService.SearchResponse.Result").GetProperty("required").EnumerateArray().Select(r => r.GetString()));
        SchemaAssert.Is(SchemaAssert.ArrayItems(document.Property("ProtoService.SearchResponse.Result", "snippets")), "string");
    }

    [Fact]
    public async Task OrderIsItsJsonMappingFieldByField()
    {
        var document = await OpenApiDocument.GetAsync(_server.Client);
        const string order = "Northwind.Order";

        Assert.Equal(
            ["orderId", "customerId", "employeeId", "orderDate", "requiredDate", "shippedDate", "shipVia", "freight",
             "shipName", "shipAddress", "shipCity", "shipRegion", "shipPostalCode", "shipCountry", "lines"],
            document.Schema(order).GetProperty("properties").EnumerateObject().Select(p => p.Name));
        SchemaAssert.Is(document.Property(order, "orderId"), "integer", "int32");
        SchemaAssert.Is(document.Property(order, "customerId"), "string");
        SchemaAssert.Is(document.Property(order, "orderDate"), "string", "date-time");
        SchemaAssert.Is(document.Property(order, "shippedDate"), "string", "date-time");
        SchemaAssert.Is(document.Property(order, "freight"), "number", "float");
        SchemaAssert.RefersTo(SchemaAssert.ArrayItems(document.Property(order, "lines")), "Northwind.OrderLine");
        SchemaAssert.Is(document.Property("Northwind.OrderLine", "unitPrice"), "number", "float");
        SchemaAssert.RefersTo(SchemaAssert.ArrayItems(document.Property("Northwind.OrderList", "orders")), order);
        Assert.False(document.Schema(order).TryGetProperty("required", out _));
    }

    [Fact]
    public async Task SummariesAndDescriptionsComeFromTheProtoComments()
    {
        var document = await OpenApiDocument.GetAsync(_server.Client);

        var getOrders = document.Operation("/Northwind.proto/GetOrders", "post");
        Assert.Equal("Every order with its lines.", getOrders.GetProperty("summary").GetString());
        Assert.Equal("Echoes the orders it is sent.", document.Operation("/Northwind.proto/Roundtrip", "post").GetProperty("summary").GetString());
        Assert.Equal("Northwind.NorthwindService", getOrders.GetProperty("tags")[0].GetString());
        // Field comments, from test_service.proto and streaming_service.proto.
        Assert.Equal("How many ticks to write.", document.Property("protohttp.tests.streaming.CountRequest", "count").GetProperty("description").GetString());
    }

    [Fact]
    public async Task OperationIdsAreUniqueEvenForAServiceMappedTwice()
    {
        var document = await OpenApiDocument.GetAsync(_server.Client);

        var ids = document.Paths.EnumerateObject().SelectMany(p => p.Value.EnumerateObject())
            .Select(o => o.Value.GetProperty("operationId").GetString()).ToList();
        Assert.Equal(ids.Count, ids.Distinct().Count());
        Assert.Contains("TestService_Slow", ids);
        Assert.Contains("TestService_Slow_2", ids); // The copy at /secure/test_service.proto.
    }

    [Fact]
    public async Task ConnectPathsTakeConnectsCodecsAndAnswerConnectErrors()
    {
        var document = await OpenApiDocument.GetAsync(_server.Client);
        var post = document.Operation("/ProtoService.SearchService/Search", "post");

        Assert.Equal(["application/json", "application/proto"], post.GetProperty("requestBody").GetProperty("content").EnumerateObject().Select(c => c.Name));
        SchemaAssert.RefersTo(post.GetProperty("responses").GetProperty("default").GetProperty("content").GetProperty("application/json").GetProperty("schema"), "connect.error");
        var get = document.Operation("/Northwind.NorthwindService/GetOrders", "get");
        Assert.Equal(["connect", "encoding", "message", "base64", "compression"],
            get.GetProperty("parameters").EnumerateArray().Where(p => p.GetProperty("in").GetString() == "query").Select(p => p.GetProperty("name").GetString()));
    }

    [Fact]
    public async Task StreamingMethodsDescribeTheirStreamFormats()
    {
        var document = await OpenApiDocument.GetAsync(_server.Client);

        var count = document.Operation("/streaming_service.proto/Count", "post").GetProperty("responses").GetProperty("200").GetProperty("content");
        Assert.Equal(["application/connect+json", "application/connect+proto", "application/x-ndjson", "text/event-stream"], count.EnumerateObject().Select(c => c.Name).Order());
        SchemaAssert.RefersTo(count.GetProperty("application/x-ndjson").GetProperty("schema").GetProperty("properties").GetProperty("result"), "protohttp.tests.streaming.Tick");
        var sum = document.Operation("/streaming_service.proto/Sum", "post").GetProperty("requestBody").GetProperty("content");
        Assert.Equal(["application/connect+json", "application/connect+proto"], sum.EnumerateObject().Select(c => c.Name).Order());
    }
}
