using System.Net;
using Google.Protobuf;
using ProtoHttp.FunctionalTests.Infrastructure;
using ProtoHttp.FunctionalTests.Library;
using static ProtoHttp.FunctionalTests.Rest.RestTranscodingParityTests;

namespace ProtoHttp.FunctionalTests.Rest;

/// <summary>
/// Where gRPC JSON transcoding (Microsoft.AspNetCore.Grpc.JsonTranscoding 10.0.14) is wrong, ProtoHttp answers as the
/// HttpRule documentation and the protobuf JSON mapping say (docs/protocol.md section 14, docs/rest.md lists each). Each
/// test asserts ProtoHttp's answer and that transcoding still differs, so the list stays true.
/// </summary>
public sealed class RestTranscodingDifferenceTests(RestServers servers) : IClassFixture<RestServers>
{
    [Fact]
    public async Task SingleSegmentVariablesDecodeEncodedSlashes()
    {
        var call = new RestCall("GET", "/v1/shelves/a%2Fb");

        var ours = await AnswerAsync<Shelf>(servers.ProtoHttp, call);
        var theirs = await AnswerAsync<Shelf>(servers.Transcoding, call);

        Assert.Equal("a/b", ours.Id);
        Assert.Equal("a%2Fb", theirs.Id);
    }

    [Fact]
    public async Task WrapperValuesBindByTheirValueField()
    {
        var call = new RestCall("GET", "/v1/books:search?min_pages.value=300&author.value=me");

        var ours = await AnswerAsync<SearchResponse>(servers.ProtoHttp, call);
        using var theirs = await SendAsync(servers.Transcoding, call);

        Assert.Equal(300, ours.Request.MinPages);
        Assert.Equal("me", ours.Request.Author);
        Assert.Equal(HttpStatusCode.BadRequest, theirs.StatusCode);
        Assert.Contains("Unable to cast", await theirs.Content.ReadAsStringAsync());
    }

    [Fact]
    public async Task SixtyFourBitQueryValuesKeepEveryDigit()
    {
        var call = new RestCall("GET", "/v1/books:search?max_results=9007199254740993");

        var ours = await AnswerAsync<SearchResponse>(servers.ProtoHttp, call);
        var theirs = await AnswerAsync<SearchResponse>(servers.Transcoding, call);

        Assert.Equal(9007199254740993, ours.Request.MaxResults);
        Assert.Equal(9007199254740992, theirs.Request.MaxResults);
    }

    [Fact]
    public async Task UnknownFieldsInAJsonBodyAreRefused()
    {
        var call = new RestCall("POST", "/v1/shelves/s1/books?book_id=b9", """{"titel":"typo"}""");

        using var ours = await SendAsync(servers.ProtoHttp, call);
        using var theirs = await SendAsync(servers.Transcoding, call);

        Assert.Equal(HttpStatusCode.BadRequest, ours.StatusCode);
        Assert.Contains("titel", (await Wire.ReadErrorAsync(ours)).ErrorText);
        Assert.Equal(HttpStatusCode.OK, theirs.StatusCode);
    }

    [Fact]
    public async Task FieldMasksInCamelCaseAreRead()
    {
        var call = new RestCall("GET", "/v1/books:search?read_mask=a.b,cD");

        var ours = await AnswerAsync<SearchResponse>(servers.ProtoHttp, call);
        using var theirs = await SendAsync(servers.Transcoding, call);

        Assert.Equal(["a.b", "c_d"], ours.Request.ReadMask.Paths);
        Assert.Equal(HttpStatusCode.InternalServerError, theirs.StatusCode);
    }

    [Fact]
    public async Task ErrorsNameTheKeyWithoutDotNetExceptionText()
    {
        var call = new RestCall("GET", "/v1/shelves/s1/books?page_size=99999999999");

        using var ours = await SendAsync(servers.ProtoHttp, call);
        using var theirs = await SendAsync(servers.Transcoding, call);

        Assert.Equal(HttpStatusCode.BadRequest, ours.StatusCode);
        Assert.Equal("Key 'page_size': '99999999999' is not a valid int32.", (await Wire.ReadErrorAsync(ours)).ErrorText);
        Assert.Contains("Value was either too large or too small for an Int32.", await theirs.Content.ReadAsStringAsync());
    }

    [Fact]
    public async Task LiteralSegmentsAreCaseSensitive()
    {
        var call = new RestCall("GET", "/V1/shelves/s1");

        using var ours = await SendAsync(servers.ProtoHttp, call);
        using var theirs = await SendAsync(servers.Transcoding, call);

        Assert.Equal(HttpStatusCode.NotFound, ours.StatusCode);
        Assert.Equal("NOT_FOUND", (await Wire.ReadErrorAsync(ours)).Code);
        Assert.Equal(HttpStatusCode.OK, theirs.StatusCode);
    }

    [Fact]
    public async Task ABodyLeftOutIsTheEmptyMessage()
    {
        var call = new RestCall("POST", "/v1/shelves/s1/books/b1:move");

        var ours = await AnswerAsync<Book>(servers.ProtoHttp, call);
        using var theirs = await SendAsync(servers.Transcoding, call);

        Assert.Equal("shelves/s1/books/b1", ours.Title);
        Assert.Equal(HttpStatusCode.BadRequest, theirs.StatusCode);
    }

    private static async Task<T> AnswerAsync<T>(HttpClient client, RestCall call)
        where T : IMessage<T>, new()
    {
        using var response = await SendAsync(client, call);
        Assert.True(response.StatusCode == HttpStatusCode.OK, await response.Content.ReadAsStringAsync());
        return await Wire.ReadAsync<T>(response);
    }
}
