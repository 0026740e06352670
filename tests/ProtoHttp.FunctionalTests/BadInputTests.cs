using System.Diagnostics;
using System.Net;
using System.Net.Http.Headers;
using System.Text;
using System.Xml.Linq;
using ProtoHttp.FunctionalTests.Infrastructure;
using ProtoService;

namespace ProtoHttp.FunctionalTests;

/// <summary>
/// Issue 3's bad input on real Kestrel: each answers 400 (415 for a charset) with an ErrorResult that names the
/// problem, logs no error, and leaves the server serving.
/// </summary>
public sealed class BadInputTests(SampleServerFixture fixture) : IClassFixture<SampleServerFixture>
{
    private const string Search = "/ProtoService.proto/Search";
    private const string Echo = "/test_service.proto/Echo";

    private readonly SampleServer _server = fixture.Server;

    [Theory]
    [InlineData("<root><query>chai</query>", "not well-formed")]
    [InlineData("<root><query>chai</title></root>", "not well-formed")]
    [InlineData("<root><query>chai</query></root><root/>", "not well-formed")]
    [InlineData("<root><query a=1>chai</query></root>", "not well-formed")]
    [InlineData("chai", "not well-formed")]
    [InlineData("<root><query>a < b</query></root>", "not well-formed")]
    [InlineData("", "Missing required field 'query'")]
    public async Task MalformedXmlIs400(string xml, string problem)
    {
        using var response = await PostAsync(Search, "application/xml", xml);

        await AssertRejectedAsync(response, HttpStatusCode.BadRequest, problem);
    }

    [Theory]
    [InlineData("<root><name>&#0;</name></root>")]
    [InlineData("<root><name>a&#x1;b</name></root>")]
    [InlineData("<root><name>&#xFFFE;</name></root>")]
    [InlineData("<root><name>&#xD800;</name></root>")]
    [InlineData("<root><name>a\u0001b</name></root>")]
    public async Task ACharacterXmlCannotCarryIs400(string xml)
    {
        // Echoed back as XML, such a name could not be written: the reader must refuse it as the malformed input it is.
        using var response = await PostAsync(Echo, "application/xml", xml);

        await AssertRejectedAsync(response, HttpStatusCode.BadRequest, "not well-formed");
    }

    [Fact]
    public async Task XmlThatIsNotUtf8Is400()
    {
        using var response = await PostAsync(Search, "application/xml", [.. "<root><query>"u8, 0xE9, .. "</query></root>"u8]);

        await AssertRejectedAsync(response, HttpStatusCode.BadRequest, "UTF-8");
    }

    [Fact]
    public async Task ADtdIs400()
    {
        const string Xml = "<!DOCTYPE root [<!ELEMENT root ANY><!ENTITY greeting \"chai\">]><root><query>&greeting;</query></root>";

        using var response = await PostAsync(Search, "application/xml", Xml);

        await AssertRejectedAsync(response, HttpStatusCode.BadRequest, "DTD");
    }

    [Fact]
    public async Task AnExternalEntityToALocalFileIsNeitherReadNorEchoed()
    {
        // Echo answers the name it reads, so a read file would come straight back.
        var secret = Path.Combine(Path.GetTempPath(), $"protohttp-xxe-{Guid.NewGuid():N}.txt");
        await File.WriteAllTextAsync(secret, "top secret");
        try
        {
            var xml = $"<?xml version=\"1.0\"?><!DOCTYPE root [<!ENTITY secret SYSTEM \"{new Uri(secret).AbsoluteUri}\">]><root><name>&secret;</name></root>";

            using var response = await PostAsync(Echo, "application/xml", xml);

            var error = await AssertRejectedAsync(response, HttpStatusCode.BadRequest, "DTD");
            Assert.DoesNotContain("top secret", error, StringComparison.Ordinal);
        }
        finally
        {
            File.Delete(secret);
        }
    }

    [Theory]
    [InlineData("<!DOCTYPE root [<!ENTITY remote SYSTEM \"{0}entity\">]><root><name>&remote;</name></root>")]
    [InlineData("<!DOCTYPE root SYSTEM \"{0}external.dtd\"><root><name>x</name></root>")]
    [InlineData("<!DOCTYPE root [<!ENTITY % remote SYSTEM \"{0}parameter.dtd\"> %remote;]><root><name>x</name></root>")]
    [InlineData("<!DOCTYPE root PUBLIC \"-//ProtoHttp//Test//EN\" \"{0}public.dtd\"><root><name>x</name></root>")]
    public async Task AnExternalEntityOrDtdAtAUrlIsNeverFetched(string template)
    {
        using var watcher = new ConnectionWatcher();

        using var response = await PostAsync(Echo, "application/xml", template.Replace("{0}", watcher.Address.ToString(), StringComparison.Ordinal));

        await AssertRejectedAsync(response, HttpStatusCode.BadRequest, "DTD");
        // A fetch happens while the body is read, before the answer: its connection would be queued at the watcher by
        // now (and the answer held back, since the watcher never answers).
        Assert.False(watcher.AnyConnected, "the server connected to the entity's URL");
    }

    [Fact]
    public async Task AnEntityExpansionBombIsRejectedWithoutExpanding()
    {
        var dtd = new StringBuilder("<!DOCTYPE root [<!ENTITY lol0 \"lollollollollollollollollollol\">");
        for (var level = 1; level <= 9; level++)
        {
            var tenOfTheLevelBelow = string.Concat(Enumerable.Repeat("&lol" + (level - 1) + ";", 10));
            dtd.Append("<!ENTITY lol" + level + " \"" + tenOfTheLevelBelow + "\">");
        }

        var xml = dtd.Append("]><root><name>&lol9;</name></root>").ToString();
        var stopwatch = Stopwatch.StartNew();

        using var response = await PostAsync(Echo, "application/xml", xml);

        var error = await AssertRejectedAsync(response, HttpStatusCode.BadRequest, "DTD");
        Assert.DoesNotContain("lollol", error, StringComparison.Ordinal);
        Assert.True(response.Content.Headers.ContentLength < 1024, $"the answer is {response.Content.Headers.ContentLength} bytes");
        Assert.True(stopwatch.Elapsed < TimeSpan.FromSeconds(5), $"took {stopwatch.Elapsed}");
    }

    [Fact]
    public async Task AnUndeclaredEntityIsNotExpanded()
    {
        using var response = await PostAsync(Echo, "application/xml", "<root><name>&lol;</name></root>");

        await AssertRejectedAsync(response, HttpStatusCode.BadRequest, "not well-formed");
    }

    [Fact]
    public async Task XmlNestedOneHundredDeepIsReadAndOneHundredAndOneIs400()
    {
        using var deepest = await PostAsync(Echo, "application/xml", NestedXml(100));
        using var tooDeep = await PostAsync(Echo, "application/xml", NestedXml(101));

        Assert.Equal(HttpStatusCode.OK, deepest.StatusCode);
        await AssertRejectedAsync(tooDeep, HttpStatusCode.BadRequest, "deeper than 100");
    }

    [Fact]
    public async Task JsonNestedOneHundredDeepIsReadAndOneHundredAndOneIs400()
    {
        using var deepest = await PostAsync(Echo, "application/json", NestedJson(100));
        using var tooDeep = await PostAsync(Echo, "application/json", NestedJson(101));

        Assert.Equal(HttpStatusCode.OK, deepest.StatusCode);
        await AssertRejectedAsync(tooDeep, HttpStatusCode.BadRequest, "too many levels of nesting");
    }

    [Fact]
    public async Task AFormKeyNestedDeeperThanOneHundredIs400()
    {
        var key = string.Concat(Enumerable.Repeat("child.", 100)) + "name";

        using var response = await PostAsync(Echo, "application/x-www-form-urlencoded", key + "=x");

        await AssertRejectedAsync(response, HttpStatusCode.BadRequest, "deeper than 100");
    }

    [Theory]
    [InlineData("application/xml; charset=iso-8859-1", "<root><query>chai</query></root>")]
    [InlineData("text/xml; charset=utf-16", "<root><query>chai</query></root>")]
    [InlineData("application/x-www-form-urlencoded; charset=windows-1252", "query=chai")]
    [InlineData("application/json; charset=latin1", "{\"query\":\"chai\"}")]
    public async Task ANonUtf8CharsetIs415(string contentType, string body)
    {
        using var response = await PostAsync(Search, contentType, body);

        await AssertRejectedAsync(response, HttpStatusCode.UnsupportedMediaType, "charset other than utf-8");
        Assert.Contains("application/xml", string.Join(",", response.Headers.GetValues("Accept-Post")));
    }

    [Theory]
    [InlineData(Search, "query=chai&page_number=abc", "Key 'page_number': 'abc' is not a valid int32.")]
    [InlineData(Search, "query=chai&page_number=1&page_number=2", "Key 'page_number' has two values")]
    [InlineData(Search, "query=chai&unknown=1", "Unknown key 'unknown'")]
    [InlineData(Search, "page_number=1", "Missing required field 'query'.")]
    [InlineData(Echo, "result.url=x", "'result'")]
    [InlineData(Echo, "data=not*base64", "Key 'data': 'not*base64' is not valid base64.")]
    [InlineData(Echo, "shade=PURPLE", "Key 'shade': 'PURPLE' is not a value of enum Shade.")]
    public async Task ABadQueryStringOrFormIs400NamingTheKey(string path, string pairs, string problem)
    {
        using var get = await _server.Client.GetAsync($"{path}?{pairs}");
        await AssertRejectedAsync(get, HttpStatusCode.BadRequest, problem);

        using var post = await PostAsync(path, "application/x-www-form-urlencoded", pairs);
        await AssertRejectedAsync(post, HttpStatusCode.BadRequest, problem);
    }

    [Fact]
    public async Task ARepeatedMessageFieldCannotBeBoundFromAForm()
    {
        using var response = await _server.Client.GetAsync(Echo + "?result.url=x");

        var error = await AssertRejectedAsync(response, HttpStatusCode.BadRequest, "result");
        Assert.Contains("repeated", error, StringComparison.Ordinal);
    }

    [Theory]
    [InlineData("application/xml", "<root><data>not*base64</data></root>", "data")]
    [InlineData("application/xml", "<root><shade>PURPLE</shade></root>", "PURPLE")]
    [InlineData("application/json", "{\"data\":\"not*base64\"}", "data")]
    [InlineData("application/json", "{\"shade\":\"PURPLE\"}", "PURPLE")]
    public async Task BadBytesAndEnumNamesInXmlAndJsonAre400(string contentType, string body, string problem)
    {
        using var response = await PostAsync(Echo, contentType, body);

        await AssertRejectedAsync(response, HttpStatusCode.BadRequest, problem);
    }

    private static string NestedXml(int messages) =>
        "<root>" + string.Concat(Enumerable.Repeat("<child>", messages - 1)) + "<name>x</name>"
        + string.Concat(Enumerable.Repeat("</child>", messages - 1)) + "</root>";

    private static string NestedJson(int messages) =>
        string.Concat(Enumerable.Repeat("{\"child\":", messages - 1)) + "{\"name\":\"x\"}" + new string('}', messages - 1);

    private Task<HttpResponseMessage> PostAsync(string path, string contentType, string body) =>
        PostAsync(path, contentType, Encoding.UTF8.GetBytes(body));

    private Task<HttpResponseMessage> PostAsync(string path, string contentType, byte[] body)
    {
        var content = new ByteArrayContent(body);
        content.Headers.ContentType = MediaTypeHeaderValue.Parse(contentType);
        return _server.Client.PostAsync(path, content);
    }

    /// <summary>
    /// Checks the ErrorResult (XML for an XML request the server could start reading, JSON otherwise) and that the
    /// server logged no error and still answers; returns the error text.
    /// </summary>
    private async Task<string> AssertRejectedAsync(HttpResponseMessage response, HttpStatusCode status, string problem)
    {
        Assert.Equal(status, response.StatusCode);
        string code, text;
        if (response.Content.Headers.ContentType?.MediaType == "application/xml")
        {
            var root = XElement.Parse(await response.Content.ReadAsStringAsync());
            Assert.Equal("root", root.Name.LocalName);
            code = (string)root.Element("code")!;
            text = (string)root.Element("error_text")!;
        }
        else
        {
            Assert.Equal("application/json", response.Content.Headers.ContentType?.MediaType);
            var error = await Wire.ReadErrorAsync(response);
            (code, text) = (error.Code, error.ErrorText);
        }

        Assert.Equal("INVALID_ARGUMENT", code);
        Assert.Contains(problem, text, StringComparison.Ordinal);
        Assert.Empty(await _server.Logs.ErrorsOnceEndedAsync());

        using var next = await _server.Client.GetAsync(Search + "?query=chai");
        Assert.Equal(HttpStatusCode.OK, next.StatusCode);
        Assert.Equal("Chai", (await Wire.ReadAsync<SearchResponse>(next)).Result[0].Title);
        return text;
    }
}
