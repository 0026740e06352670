using System.Net;
using System.Text.Json;
using System.Text.RegularExpressions;
using Microsoft.AspNetCore.Builder;
using Microsoft.Extensions.DependencyInjection;
using ProtoHttp.AspNetCore;
using ProtoHttp.AspNetCore.OpenApi;
using ProtoHttp.FunctionalTests.OpenApi;
using ProtoHttp.FunctionalTests.Services;

namespace ProtoHttp.FunctionalTests.Rest;

/// <summary>
/// The REST routes where users look (docs/protocol.md section 14): the OpenAPI document lists each rule's path with its
/// verb, path and query parameters and body, and every such operation, called as documented (each request type, each
/// answer type), answers neither 405, 406 nor 415, with a status the document gives.
/// </summary>
public sealed partial class RestDescriptionTests : IAsyncLifetime
{
    private WebApplication _app = null!;
    private HttpClient Client { get; set; } = null!;

    public async Task InitializeAsync()
    {
        _app = await RestServers.StartAsync(
            builder =>
            {
                builder.Services.AddProtoHttp();
                builder.Services.AddOpenApi(options => options.AddProtoHttp());
            },
            app =>
            {
                app.MapProtoService<LibraryService>();
                app.MapOpenApi();
                app.MapProtoHttpExplorer();
            });
        Client = new HttpClient { BaseAddress = new Uri(_app.Urls.First()) };
    }

    public async Task DisposeAsync()
    {
        Client.Dispose();
        await _app.DisposeAsync();
    }

    [Fact]
    public async Task TheDocumentDescribesEachRuleWithItsParameters()
    {
        var document = await OpenApiDocument.GetAsync(Client);

        var getBook = document.Operation("/v1/shelves/{name_1}/books/{name_2}", "get");
        Assert.Equal(["name_1", "name_2"], Parameters(getBook, "path"));
        Assert.Empty(Parameters(getBook, "query"));
        Assert.True(document.Paths.GetProperty("/v1/shelves/{name_1}/books/{name_2}").TryGetProperty("delete", out _));
        Assert.Equal(["name"], Parameters(document.Operation("/v1/books/{name}", "get"), "path"));

        var listBooks = document.Operation("/v1/shelves/{shelf}/books", "get");
        Assert.Equal(["shelf"], Parameters(listBooks, "path"));
        Assert.Equal(["page_size", "page_token"], Parameters(listBooks, "query"));

        var create = document.Operation("/v1/shelves/{shelf}/books", "post");
        Assert.Equal(["book_id"], Parameters(create, "query"));
        Assert.Equal("protohttp.tests.library.Book", OpenApiDocument.ReferenceId(create.GetProperty("requestBody").GetProperty("content").GetProperty("application/json").GetProperty("schema")));

        var search = document.Operation("/v1/books:search", "get");
        Assert.Contains("min_pages", Parameters(search, "query"));
        Assert.Contains("page_range.from", Parameters(search, "query"));
        Assert.False(document.Operation("/v1/shelves/{shelf}/report", "report").TryGetProperty("requestBody", out _));
        Assert.Equal(["id"], Parameters(document.Operation("/v1/shelves/{id}", "put"), "path"));
        Assert.Empty(Parameters(document.Operation("/v1/shelves/{id}", "put"), "query")); // body: "*" binds the rest
    }

    [Fact]
    public async Task EveryRestOperationAnswersAsDocumented()
    {
        var document = await OpenApiDocument.GetAsync(Client);
        var failures = new List<string>();
        var operations = 0;
        foreach (var path in document.Paths.EnumerateObject().Where(p => p.Name.StartsWith("/v1/", StringComparison.Ordinal)))
        {
            var target = PathParameter().Replace(path.Name, "s1");
            foreach (var operation in path.Value.EnumerateObject())
            {
                operations++;
                var responses = operation.Value.GetProperty("responses");
                foreach (var requestType in ContentTypes(operation.Value, "requestBody"))
                {
                    foreach (var accept in ContentTypes(responses, "200"))
                    {
                        using var request = new HttpRequestMessage(new HttpMethod(operation.Name.ToUpperInvariant()), target);
                        if (requestType is not null)
                        {
                            request.Content = Body(requestType);
                        }

                        request.Headers.TryAddWithoutValidation("Accept", accept ?? "*/*");
                        using var response = await Client.SendAsync(request, HttpCompletionOption.ResponseHeadersRead);
                        var status = ((int)response.StatusCode).ToString(System.Globalization.CultureInfo.InvariantCulture);
                        if (status is "405" or "406" or "415" || !responses.TryGetProperty(status, out _) && !responses.TryGetProperty("default", out _))
                        {
                            failures.Add($"{operation.Name} {target} ({requestType}, Accept: {accept}): {status} {await response.Content.ReadAsStringAsync()}");
                        }
                    }
                }
            }
        }

        Assert.True(operations >= 15, $"{operations} REST operations documented");
        Assert.True(failures.Count == 0, string.Join('\n', failures));
    }

    [Fact]
    public async Task TheExplorerPageListsEachRestRouteWithItsVerb()
    {
        using var request = new HttpRequestMessage(HttpMethod.Get, "/library.proto");
        request.Headers.TryAddWithoutValidation("Accept", "text/html");
        using var response = await Client.SendAsync(request);
        var html = await response.Content.ReadAsStringAsync();

        Assert.Equal(HttpStatusCode.OK, response.StatusCode);
        Assert.Contains("<span class=\"px-protocol\">Rest</span> <code>GET /v1/shelves/{name_1}/books/{name_2}</code>", html);
        Assert.Contains("<code>GET /v1/books/{**name}</code>", html);
        Assert.Contains("<code>PATCH /v1/shelves/{book_name_1}/books/{book_name_2}</code>", html);
        Assert.Contains("<code>REPORT /v1/shelves/{shelf}/report</code>", html);
        Assert.Contains("<code>GET /v1/shelves/{shelf}:watch</code>", html);
    }

    private static List<string> Parameters(JsonElement operation, string location) =>
        [.. operation.GetProperty("parameters").EnumerateArray().Where(p => p.GetProperty("in").GetString() == location).Select(p => p.GetProperty("name").GetString()!)];

    private static List<string?> ContentTypes(JsonElement owner, string property) =>
        owner.TryGetProperty(property, out var element) && element.TryGetProperty("content", out var content)
            ? [.. content.EnumerateObject().Select(c => (string?)c.Name)]
            : [null];

    private static ByteArrayContent Body(string mediaType)
    {
        byte[] bytes = mediaType switch
        {
            "application/json" => "{}"u8.ToArray(),
            "application/xml" => "<root></root>"u8.ToArray(),
            "*/*" => "raw"u8.ToArray(),
            _ => [],
        };
        var content = new ByteArrayContent(bytes);
        content.Headers.TryAddWithoutValidation("Content-Type", mediaType == "*/*" ? "application/octet-stream" : mediaType);
        return content;
    }

    [GeneratedRegex(@"\{[^}]+\}")]
    private static partial Regex PathParameter();
}
