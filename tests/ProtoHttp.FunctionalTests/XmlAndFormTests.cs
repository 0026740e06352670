using System.Net;
using System.Net.Http.Headers;
using System.Text;
using System.Xml.Linq;
using ProtoHttp.FunctionalTests.Infrastructure;
using ProtoService;

namespace ProtoHttp.FunctionalTests;

/// <summary>Issue 3's formats on real Kestrel: GET calls, XML in and out, HTML form posts, and how they negotiate.</summary>
public sealed class XmlAndFormTests(SampleServerFixture fixture) : IClassFixture<SampleServerFixture>
{
    private const string Search = "/ProtoService.proto/Search";

    /// <summary>What Chromium sends from the address bar and for a form submission.</summary>
    internal const string BrowserAccept = "text/html,application/xhtml+xml,application/xml;q=0.9,image/avif,image/webp,image/apng,*/*;q=0.8";

    private readonly SampleServer _server = fixture.Server;

    [Fact]
    public async Task GetWithCurlsAcceptAnswersJsonHits()
    {
        using var response = await GetAsync(Search + "?query=chai", "*/*");

        Assert.Equal("application/json", response.Content.Headers.ContentType?.MediaType);
        Assert.Equal("utf-8", response.Content.Headers.ContentType?.CharSet);
        var hits = await Wire.ReadAsync<SearchResponse>(response);
        Assert.Equal("Chai", hits.Result[0].Title);
        await AssertNoErrorLoggedAsync();
    }

    [Theory]
    [InlineData(BrowserAccept)]
    [InlineData("application/xml")]
    public async Task GetWithAnXmlAcceptAnswersXml(string accept)
    {
        using var response = await GetAsync(Search + "?query=chai", accept);

        Assert.Equal("application/xml", response.Content.Headers.ContentType?.MediaType);
        Assert.Equal("utf-8", response.Content.Headers.ContentType?.CharSet);
        var body = await response.Content.ReadAsStringAsync();
        Assert.StartsWith("<root><result><url>https://northwind.example/products/1</url><title>Chai</title>", body, StringComparison.Ordinal);
        await AssertNoErrorLoggedAsync();
    }

    [Theory]
    [InlineData(null)]
    [InlineData("*/*")]
    [InlineData("application/json")]
    public async Task TheXmlSuffixAnswersXmlWhateverTheAccept(string? accept)
    {
        using var response = await GetAsync("/ProtoService.proto/Search.xml?query=chai&page_number=1", accept);

        Assert.Equal("application/xml", response.Content.Headers.ContentType?.MediaType);
        var body = await response.Content.ReadAsStringAsync();
        Assert.StartsWith("<root><result>", body, StringComparison.Ordinal);
        Assert.Equal("Chai", Titles(XElement.Parse(body))[0]);
        await AssertNoErrorLoggedAsync();
    }

    [Fact]
    public async Task AFormPostWithResultPerPageGivesThatManyHits()
    {
        using var response = await _server.Client.PostAsync(Search, Form("query=chai&result_per_page=2"));

        Assert.Equal(HttpStatusCode.OK, response.StatusCode);
        // A form is not a format the server writes: its own format is JSON, as for GET.
        Assert.Equal("application/json", response.Content.Headers.ContentType?.MediaType);
        var hits = await Wire.ReadAsync<SearchResponse>(response);
        Assert.Equal(2, hits.Result.Count);
        Assert.Equal("Chai", hits.Result[0].Title);
        await AssertNoErrorLoggedAsync();
    }

    [Fact]
    public async Task AFormPostFromABrowserAnswersXml()
    {
        var request = new HttpRequestMessage(HttpMethod.Post, Search) { Content = Form("query=chai&result_per_page=2&page_number=") };
        request.Headers.TryAddWithoutValidation("Accept", BrowserAccept);

        using var response = await _server.Client.SendAsync(request);

        Assert.Equal(HttpStatusCode.OK, response.StatusCode);
        Assert.Equal("application/xml", response.Content.Headers.ContentType?.MediaType);
        Assert.Equal(["Chai", "Chang"], Titles(XElement.Parse(await response.Content.ReadAsStringAsync())));
        await AssertNoErrorLoggedAsync();
    }

    [Theory]
    [InlineData("<SearchRequest><query>chai</query></SearchRequest>")]
    [InlineData("<request><query>chai</query><page_number>1</page_number></request>")]
    [InlineData("<?xml version=\"1.0\" encoding=\"utf-8\"?>\n<root>\n  <query>chai</query>\n  <result_per_page>3</result_per_page>\n</root>\n")]
    [InlineData("<x:anything xmlns:x=\"urn:whatever\"><query>&#99;h&#x61;i</query><resultPerPage>3</resultPerPage></x:anything>")]
    [InlineData("<root><!-- a comment --><query><![CDATA[chai]]></query></root><!-- trailing -->")]
    [InlineData("\uFEFF<root><query>chai</query></root>")]
    public async Task AnXmlPostBodyIsReadAndAnsweredInXml(string xml)
    {
        using var response = await _server.Client.PostAsync(Search, Xml(xml));

        Assert.Equal(HttpStatusCode.OK, response.StatusCode);
        Assert.Equal("application/xml", response.Content.Headers.ContentType?.MediaType);
        var root = XElement.Parse(await response.Content.ReadAsStringAsync());
        Assert.Equal("root", root.Name.LocalName);
        Assert.Equal("Chai", Titles(root)[0]);
        await AssertNoErrorLoggedAsync();
    }

    [Fact]
    public async Task AnXmlBodyRoundTripsBytesEnumsRecursionAndRepeatedMessages()
    {
        const string Tree = "<root><name>a &amp; b</name><child><name>c</name><child><data>AQID</data></child></child>"
            + "<result><url>x</url></result><result><url>y</url></result><data>/w==</data><shade>DARK</shade></root>";

        using var response = await _server.Client.PostAsync("/test_service.proto/Echo", Xml(Tree));

        Assert.Equal(HttpStatusCode.OK, response.StatusCode);
        Assert.Equal(Tree, await response.Content.ReadAsStringAsync());
        await AssertNoErrorLoggedAsync();
    }

    public static TheoryData<string, string?, string> ContentTypeByAccept()
    {
        string[] requestTypes =
        [
            "application/xml", "text/xml", "application/xml; charset=utf-8", "application/vnd.search+xml",
            "application/x-www-form-urlencoded", "application/x-www-form-urlencoded; charset=UTF-8",
        ];
        var data = new TheoryData<string, string?, string>();
        foreach (var requestType in requestTypes)
        {
            var isXml = requestType.Contains("xml", StringComparison.Ordinal);
            var own = isXml ? "application/xml" : "application/json";
            data.Add(requestType, null, own);
            data.Add(requestType, "*/*", own);
            data.Add(requestType, BrowserAccept, "application/xml");
            data.Add(requestType, "application/xml", "application/xml");
            data.Add(requestType, "text/xml", "text/xml");
            data.Add(requestType, "text/*", isXml ? "text/xml" : "text/json");
            data.Add(requestType, "application/json", "application/json");
            data.Add(requestType, "application/x-protobuf", "application/x-protobuf");
            data.Add(requestType, "application/xhtml+xml, text/xml;q=0.5, application/json;q=0.4", "text/xml");
        }

        return data;
    }

    [Theory]
    [MemberData(nameof(ContentTypeByAccept))]
    public async Task XmlAndFormRequestsAnswerInTheNegotiatedType(string requestType, string? accept, string expectedType)
    {
        HttpContent content = requestType.Contains("xml", StringComparison.Ordinal)
            ? new StringContent("<SearchRequest><query>chai</query></SearchRequest>", Encoding.UTF8)
            : new StringContent("query=chai", Encoding.UTF8);
        content.Headers.ContentType = MediaTypeHeaderValue.Parse(requestType);
        var request = new HttpRequestMessage(HttpMethod.Post, Search) { Content = content };
        if (accept is not null)
        {
            request.Headers.TryAddWithoutValidation("Accept", accept);
        }

        using var response = await _server.Client.SendAsync(request);

        Assert.Equal(HttpStatusCode.OK, response.StatusCode);
        Assert.Equal(expectedType, response.Content.Headers.ContentType?.MediaType);
        Assert.Equal(Wire.IsProtobuf(expectedType) ? null : "utf-8", response.Content.Headers.ContentType?.CharSet);
        Assert.Contains("Accept", response.Headers.Vary);
        Assert.Equal("Chai", (await ReadTitlesAsync(response))[0]);
        await AssertNoErrorLoggedAsync();
    }

    [Theory]
    [InlineData(null, "application/json")]
    [InlineData("*/*", "application/json")]
    [InlineData(BrowserAccept, "application/xml")]
    [InlineData("text/xml", "text/xml")]
    [InlineData("text/*", "text/json")]
    [InlineData("application/x-protobuf", "application/x-protobuf")]
    public async Task GetCallsNegotiateAsJsonIsTheirOwnFormat(string? accept, string expectedType)
    {
        using var response = await GetAsync(Search + "?query=chai&page_number=1&result_per_page=3", accept);

        Assert.Equal(expectedType, response.Content.Headers.ContentType?.MediaType);
        Assert.Equal(["Chai", "Chang", "Chartreuse verte"], await ReadTitlesAsync(response));
        await AssertNoErrorLoggedAsync();
    }

    [Fact]
    public async Task GetDecodesPlusAndPercentEscapes()
    {
        using var plus = await GetAsync(Search + "?query=chef+anton", "application/json");
        using var escaped = await GetAsync(Search + "?query=chef%20anton&result%5Fper%5Fpage=1", "application/json");

        Assert.StartsWith("Chef Anton", (await ReadTitlesAsync(plus))[0], StringComparison.Ordinal);
        Assert.Single(await ReadTitlesAsync(escaped));
        await AssertNoErrorLoggedAsync();
    }

    private async Task<HttpResponseMessage> GetAsync(string path, string? accept)
    {
        var request = new HttpRequestMessage(HttpMethod.Get, path);
        if (accept is not null)
        {
            request.Headers.TryAddWithoutValidation("Accept", accept);
        }

        var response = await _server.Client.SendAsync(request);
        Assert.Equal(HttpStatusCode.OK, response.StatusCode);
        return response;
    }

    private async Task AssertNoErrorLoggedAsync() => Assert.Empty(await _server.Logs.ErrorsOnceEndedAsync());

    private static async Task<List<string>> ReadTitlesAsync(HttpResponseMessage response) =>
        response.Content.Headers.ContentType?.MediaType is "application/xml" or "text/xml"
            ? Titles(XElement.Parse(await response.Content.ReadAsStringAsync()))
            : (await Wire.ReadAsync<SearchResponse>(response)).Result.Select(r => r.Title).ToList();

    private static List<string> Titles(XElement root) => root.Elements("result").Select(r => (string)r.Element("title")!).ToList();

    private static StringContent Form(string body) => new(body, Encoding.UTF8, "application/x-www-form-urlencoded");

    private static StringContent Xml(string body) => new(body, Encoding.UTF8, "application/xml");
}
