using System.Net;
using Grpc.Net.Client;
using ProtoHttp.FunctionalTests.Infrastructure;
using ProtoService;

namespace ProtoHttp.FunctionalTests;

public sealed class SearchCallTests(SampleServerFixture fixture) : IClassFixture<SampleServerFixture>
{
    private const string Search = "/ProtoService.proto/Search";

    private readonly SampleServer _server = fixture.Server;

    public static TheoryData<string, string?, string> ContentTypeByAccept()
    {
        string[] requestTypes =
        [
            "application/x-protobuf", "application/protobuf", "application/vnd.google.protobuf", "application/proto",
            "application/json", "text/json", "application/json; charset=utf-8", "application/vnd.search+json",
        ];
        var data = new TheoryData<string, string?, string>();
        foreach (var requestType in requestTypes)
        {
            var own = Wire.IsProtobuf(requestType.Split(';')[0]) ? "application/x-protobuf" : "application/json";
            data.Add(requestType, null, own);
            data.Add(requestType, "*/*", own);
            data.Add(requestType, "application/x-protobuf", "application/x-protobuf");
            data.Add(requestType, "application/protobuf", "application/protobuf");
            data.Add(requestType, "application/vnd.google.protobuf, */*", "application/vnd.google.protobuf");
            data.Add(requestType, "application/proto", "application/proto");
            data.Add(requestType, "application/json", "application/json");
            data.Add(requestType, "text/json", "text/json");
            data.Add(requestType, "text/*", "text/json");
            data.Add(requestType, "application/json;q=0.4, application/x-protobuf;q=0.5", "application/x-protobuf");
            data.Add(requestType, "image/png, application/json;q=0.1", "application/json");
        }

        return data;
    }

    [Theory]
    [MemberData(nameof(ContentTypeByAccept))]
    public async Task EveryRequestTypeAnswersInTheNegotiatedType(string requestType, string? accept, string expectedType)
    {
        using var response = await _server.Client.SendAsync(Wire.Post(Search, new SearchRequest { Query = "chai" }, requestType, accept));

        Assert.Equal(HttpStatusCode.OK, response.StatusCode);
        Assert.Equal(expectedType, response.Content.Headers.ContentType?.MediaType);
        Assert.Equal(Wire.IsProtobuf(expectedType) ? null : "utf-8", response.Content.Headers.ContentType?.CharSet);
        Assert.Contains("Accept", response.Headers.Vary);
        var hits = await Wire.ReadAsync<SearchResponse>(response);
        Assert.Contains(hits.Result, r => r.Title == "Chai");
    }

    [Theory]
    [InlineData(".json", "application/json", "application/x-protobuf")]
    [InlineData(".pb", "application/x-protobuf", "application/json")]
    [InlineData(".json", "application/json", null)]
    public async Task TheMethodSuffixForcesTheResponseFormatOverAccept(string suffix, string expectedType, string? accept)
    {
        using var response = await _server.Client.SendAsync(Wire.Post(Search + suffix, new SearchRequest { Query = "chai" }, "application/x-protobuf", accept));

        Assert.Equal(HttpStatusCode.OK, response.StatusCode);
        Assert.Equal(expectedType, response.Content.Headers.ContentType?.MediaType);
        Assert.Contains((await Wire.ReadAsync<SearchResponse>(response)).Result, r => r.Title == "Chai");
    }

    [Fact]
    public async Task SearchRanksPagesAndFillsEveryHit()
    {
        var all = await SearchAsync(new SearchRequest { Query = "sauce", ResultPerPage = 100 });
        var page1 = await SearchAsync(new SearchRequest { Query = "sauce", ResultPerPage = 2 });
        var page2 = await SearchAsync(new SearchRequest { Query = "sauce", ResultPerPage = 2, PageNumber = 2 });

        Assert.True(all.Result.Count > 3, $"expected several sauces, got {all.Result.Count}");
        Assert.Equal(all.Result.Take(2).Select(r => r.Url), page1.Result.Select(r => r.Url));
        Assert.Equal(all.Result.Skip(2).Take(2).Select(r => r.Url), page2.Result.Select(r => r.Url));
        Assert.All(all.Result, hit =>
        {
            Assert.StartsWith("https://northwind.example/products/", hit.Url);
            Assert.NotEmpty(hit.Title);
            Assert.NotEmpty(hit.Snippets);
        });
    }

    [Fact]
    public async Task SearchMatchesWordsCaseInsensitively()
    {
        var upper = await SearchAsync(new SearchRequest { Query = "CHAI" });
        var nothing = await SearchAsync(new SearchRequest { Query = "chai zzzzzz" });

        Assert.Equal("Chai", upper.Result[0].Title);
        Assert.Empty(nothing.Result);
    }

    [Fact]
    public async Task RelatedProductsOfTheBestMatchFollowTheMatches()
    {
        var chai = await SearchAsync(new SearchRequest { Query = "chai", ResultPerPage = 100 });

        Assert.Equal("Chai", chai.Result[0].Title);
        Assert.True(chai.Result.Count > 2, "the other beverages follow Chai");
        Assert.All(chai.Result, hit => Assert.StartsWith("Beverages:", hit.Snippets[0]));
    }

    [Fact]
    public async Task ServesHttp2WithPriorKnowledge()
    {
        using var client = _server.CreateHttp2Client();

        var request = Wire.Post(Search, new SearchRequest { Query = "chai" }, "application/x-protobuf");
        request.Version = HttpVersion.Version20;
        request.VersionPolicy = HttpVersionPolicy.RequestVersionExact;

        using var response = await client.SendAsync(request);

        Assert.Equal(HttpVersion.Version20, response.Version);
        Assert.Equal(HttpStatusCode.OK, response.StatusCode);
        Assert.Contains((await Wire.ReadAsync<SearchResponse>(response)).Result, r => r.Title == "Chai");
    }

    [Fact]
    public async Task TheSameServiceClassAnswersGrpcSideBySide()
    {
        using var channel = GrpcChannel.ForAddress(_server.Http2Address);
        var client = new ProtoService.SearchService.SearchServiceClient(channel);

        var viaGrpc = await client.SearchAsync(new SearchRequest { Query = "chai" });
        var viaHttp = await SearchAsync(new SearchRequest { Query = "chai" });

        Assert.Equal(viaHttp, viaGrpc);
    }

    [Fact]
    public async Task PostWithoutContentTypeOrBodyIsTheEmptyMessage()
    {
        // The empty SearchRequest lacks its required query: proof that the body was read as the empty message.
        using var response = await _server.Client.PostAsync(Search, content: null);

        Assert.Equal(HttpStatusCode.BadRequest, response.StatusCode);
        Assert.Equal("Missing required field 'query'.", (await Wire.ReadErrorAsync(response)).ErrorText);
    }

    private async Task<SearchResponse> SearchAsync(SearchRequest request)
    {
        using var response = await _server.Client.SendAsync(Wire.Post(Search, request, "application/x-protobuf"));
        Assert.Equal(HttpStatusCode.OK, response.StatusCode);
        return await Wire.ReadAsync<SearchResponse>(response);
    }
}
