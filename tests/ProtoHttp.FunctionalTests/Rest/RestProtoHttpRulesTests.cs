using System.Net;
using System.Net.Http.Headers;
using Google.Protobuf;
using Microsoft.AspNetCore.Builder;
using ProtoHttp.AspNetCore;
using ProtoHttp.FunctionalTests.Infrastructure;
using ProtoHttp.FunctionalTests.Library;
using ProtoHttp.FunctionalTests.Services;
using Microsoft.Extensions.DependencyInjection;

namespace ProtoHttp.FunctionalTests.Rest;

/// <summary>
/// What ProtoHttp adds on the REST routes beyond transcoding (docs/protocol.md section 14): answers and errors in the
/// format <c>Accept</c> names, protobuf request bodies, ETags and 304 for GETs of <c>NO_SIDE_EFFECTS</c> methods, the
/// stream framings by <c>Accept</c>, the option that turns the routes off.
/// </summary>
public sealed class RestProtoHttpRulesTests(RestServers servers) : IClassFixture<RestServers>
{
    private HttpClient Client => servers.ProtoHttp;

    [Fact]
    public async Task AnswersInXmlWhenAsked()
    {
        using var response = await GetAsync("/v1/shelves/s1/books/b1", "application/xml");

        Assert.Equal(HttpStatusCode.OK, response.StatusCode);
        Assert.Equal("application/xml", response.Content.Headers.ContentType?.MediaType);
        var xml = await response.Content.ReadAsStringAsync();
        Assert.Contains("<name>shelves/s1/books/b1</name>", xml);
        Assert.Contains("<genre>HISTORY</genre>", xml);
        Assert.Contains("Accept", response.Headers.Vary);
    }

    [Fact]
    public async Task AnswersInProtobufWhenAsked()
    {
        using var response = await GetAsync("/v1/shelves/s1/books/b1", "application/x-protobuf");

        Assert.Equal(HttpStatusCode.OK, response.StatusCode);
        Assert.Equal("application/x-protobuf", response.Content.Headers.ContentType?.MediaType);
        var book = Book.Parser.ParseFrom(await response.Content.ReadAsByteArrayAsync());
        Assert.Equal("shelves/s1/books/b1", book.Name);
        Assert.Equal(Genre.History, book.Genre);
    }

    [Fact]
    public async Task ReadsAProtobufBodyField()
    {
        using var request = new HttpRequestMessage(HttpMethod.Post, "/v1/shelves/s1/books?book_id=b2")
        {
            Content = Wire.Body(new Book { Title = "Binary", Pages = 7 }, "application/x-protobuf"),
        };
        using var response = await Client.SendAsync(request);

        Assert.Equal(HttpStatusCode.OK, response.StatusCode);
        Assert.Equal("application/x-protobuf", response.Content.Headers.ContentType?.MediaType);
        var book = Book.Parser.ParseFrom(await response.Content.ReadAsByteArrayAsync());
        Assert.Equal(new Book { Name = "shelves/s1/books/b2", Title = "Binary", Pages = 7 }, book);
    }

    [Fact]
    public async Task ErrorsComeInTheNegotiatedFormat()
    {
        using var xml = await GetAsync("/v1/shelves/missing", "application/xml");
        using var protobuf = await GetAsync("/v1/shelves/missing", "application/x-protobuf");

        Assert.Equal(HttpStatusCode.NotFound, xml.StatusCode);
        Assert.Equal("application/xml", xml.Content.Headers.ContentType?.MediaType);
        Assert.Contains("NOT_FOUND", await xml.Content.ReadAsStringAsync());
        Assert.Equal(HttpStatusCode.NotFound, protobuf.StatusCode);
        var error = ErrorResult.Parser.ParseFrom(await protobuf.Content.ReadAsByteArrayAsync());
        Assert.Equal("NOT_FOUND", error.Code);
        Assert.Equal("'missing' is not in the library.", error.ErrorText);
    }

    [Fact]
    public async Task OtherVerbsAre405WithAllowAndAnErrorResult()
    {
        using var response = await Client.PostAsync("/v1/shelves/s1/books/b1", new StringContent("{}"));

        Assert.Equal(HttpStatusCode.MethodNotAllowed, response.StatusCode);
        Assert.Equal(["DELETE", "GET", "PATCH"], response.Content.Headers.Allow.Order(StringComparer.Ordinal));
        Assert.Equal("UNIMPLEMENTED", (await Wire.ReadErrorAsync(response)).Code);
    }

    [Theory]
    [InlineData("application/xml")]
    [InlineData("application/x-protobuf")]
    public async Task ARepeatedResponseBodyAnswersItsJsonValueWhateverAcceptAsks(string accept)
    {
        // protobuf and XML write messages; the rule's answer is a list of books, which is none (docs/rest.md).
        using var response = await GetAsync("/v1/shelves/s1/titles?page_size=2", accept);

        Assert.Equal(HttpStatusCode.OK, response.StatusCode);
        Assert.Equal("application/json", response.Content.Headers.ContentType?.MediaType);
        var books = System.Text.Json.Nodes.JsonNode.Parse(await response.Content.ReadAsStringAsync())!.AsArray();
        Assert.Equal(2, books.Count);
    }

    [Fact]
    public async Task UnavailableFormatsAre406()
    {
        using var response = await GetAsync("/v1/shelves/s1", "text/csv");

        Assert.Equal(HttpStatusCode.NotAcceptable, response.StatusCode);
    }

    [Fact]
    public async Task SideEffectFreeGetsCarryAnETagAndAnswer304()
    {
        using var first = await GetAsync("/v1/shelves/s1", "application/json");
        var etag = first.Headers.ETag;
        Assert.NotNull(etag);

        using var request = new HttpRequestMessage(HttpMethod.Get, "/v1/shelves/s1");
        request.Headers.IfNoneMatch.Add(etag);
        using var again = await Client.SendAsync(request);
        using var other = await GetAsync("/v1/shelves/s1/books?page_size=1", "application/json");

        Assert.Equal(HttpStatusCode.NotModified, again.StatusCode);
        Assert.Equal(HttpStatusCode.OK, other.StatusCode);
        Assert.Null(other.Headers.ETag); // ListBooks is not marked NO_SIDE_EFFECTS
    }

    [Fact]
    public async Task StreamsAnswerEventsWhenAsked()
    {
        using var response = await GetAsync("/v1/shelves/s1:watch?count=2", "text/event-stream");

        Assert.Equal(HttpStatusCode.OK, response.StatusCode);
        Assert.Equal("text/event-stream", response.Content.Headers.ContentType?.MediaType);
        var text = await response.Content.ReadAsStringAsync();
        Assert.Contains("shelves/s1/books/1", text);
        Assert.Contains("event: end", text);
    }

    [Fact]
    public async Task TheServiceKeepsItsOwnRoutes()
    {
        using var response = await GetAsync("/library.proto/GetShelf?shelf=s1", "application/json");

        Assert.Equal(HttpStatusCode.OK, response.StatusCode);
        Assert.Equal("s1", (await Wire.ReadAsync<Shelf>(response)).Id);
    }

    [Fact]
    public async Task TheOptionTurnsTheRoutesOff()
    {
        await using var app = await RestServers.StartAsync(
            builder => builder.Services.AddProtoHttp(options => options.DisabledProtocols.Add(ProtocolNames.Rest)),
            app => app.MapProtoService<LibraryService>());
        using var client = new HttpClient { BaseAddress = new Uri(app.Urls.First()) };

        using var rest = await client.GetAsync("/v1/shelves/s1");
        using var own = await client.GetAsync("/library.proto/GetShelf?shelf=s1");

        Assert.Equal(HttpStatusCode.NotFound, rest.StatusCode);
        Assert.Equal(HttpStatusCode.OK, own.StatusCode);
    }

    [Fact]
    public async Task TheServicesAuthorizationAndDeadlinesHoldOnRestRoutes()
    {
        await using var app = await RestServers.StartAsync(
            builder =>
            {
                HeaderAuthenticationHandler.AddTo(builder.Services);
                builder.Services.AddAuthorization();
                builder.Services.AddProtoHttp();
            },
            app => app.MapProtoService<LibraryService>().RequireAuthorization());
        using var client = new HttpClient { BaseAddress = new Uri(app.Urls.First()) };

        using var anonymous = await client.GetAsync("/v1/shelves/s1");
        using var signedIn = new HttpRequestMessage(HttpMethod.Get, "/v1/shelves/s1");
        signedIn.Headers.Add("X-Test-User", "ada");
        using var answered = await client.SendAsync(signedIn);
        using var badTimeout = new HttpRequestMessage(HttpMethod.Get, "/v1/shelves/s1");
        badTimeout.Headers.Add("X-Test-User", "ada");
        badTimeout.Headers.Add("Connect-Timeout-Ms", "soon");
        using var refused = await client.SendAsync(badTimeout);

        Assert.Equal(HttpStatusCode.Unauthorized, anonymous.StatusCode);
        Assert.Equal("UNAUTHENTICATED", (await Wire.ReadErrorAsync(anonymous)).Code);
        Assert.Equal(HeaderAuthenticationHandler.Challenge, anonymous.Headers.WwwAuthenticate.ToString());
        Assert.Equal(HttpStatusCode.OK, answered.StatusCode);
        Assert.Equal(HttpStatusCode.BadRequest, refused.StatusCode);
        Assert.Contains("Connect-Timeout-Ms", (await Wire.ReadErrorAsync(refused)).ErrorText);
    }

    [Fact]
    public async Task TheOutputCacheStoresEachNegotiatedAnswer()
    {
        await using var app = await RestServers.StartAsync(
            builder =>
            {
                builder.Services.AddOutputCache();
                builder.Services.AddProtoHttp();
            },
            app =>
            {
                app.UseOutputCache();
                app.MapProtoService<LibraryService>().CacheOutput();
            });
        using var client = new HttpClient { BaseAddress = new Uri(app.Urls.First()) };

        using var first = await SendAsync(client, "/v1/shelves/s1/books?page_size=1", "application/json");
        using var cached = await SendAsync(client, "/v1/shelves/s1/books?page_size=1", "application/json");
        using var xml = await SendAsync(client, "/v1/shelves/s1/books?page_size=1", "application/xml");
        using var otherQuery = await SendAsync(client, "/v1/shelves/s1/books?page_size=2", "application/json");

        Assert.Null(first.Headers.Age);
        Assert.NotNull(cached.Headers.Age);
        Assert.Equal(await first.Content.ReadAsStringAsync(), await cached.Content.ReadAsStringAsync());
        Assert.Equal("application/xml", xml.Content.Headers.ContentType?.MediaType);
        Assert.Null(xml.Headers.Age);
        Assert.Equal(2, (await Wire.ReadAsync<ListBooksResponse>(otherQuery)).Books.Count);
    }

    private static async Task<HttpResponseMessage> SendAsync(HttpClient client, string target, string accept)
    {
        using var request = new HttpRequestMessage(HttpMethod.Get, target);
        request.Headers.Accept.Add(MediaTypeWithQualityHeaderValue.Parse(accept));
        return await client.SendAsync(request);
    }

    private Task<HttpResponseMessage> GetAsync(string target, string accept) => SendAsync(Client, target, accept);
}
