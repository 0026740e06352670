using System.Net;
using System.Net.Http.Headers;
using System.Text;
using Google.Protobuf;
using Google.Protobuf.WellKnownTypes;
using Microsoft.AspNetCore.Builder;
using ProtoHttp.FunctionalTests.Infrastructure;

namespace ProtoHttp.FunctionalTests.Hardening;

/// <summary>The server bugs the malformed-input suite found, one request each.</summary>
public sealed class MalformedInputRegressionTests : IAsyncLifetime
{
    private const string Echo = "/hardening.proto/Echo";

    private SampleServer _server = null!;

    public async Task InitializeAsync() => _server = await SampleServer.StartAsync(map: app => app.MapProtoService<SpecimenService>());

    public async Task DisposeAsync() => await _server.DisposeAsync();

    [Theory]
    [InlineData("application/x-www-form-urlencoded", "te%00xt=1", "te\uFFFDxt")]
    [InlineData("application/x-www-form-urlencoded", "te%07xt=1", "te\uFFFDxt")]
    [InlineData("application/json", """{"te\u0001xt":1}""", "te\uFFFDxt")]
    [InlineData("application/json", """{"te\u0000xt":1}""", "te\uFFFDxt")]
    public async Task AnErrorTextQuotingCharactersXmlCannotCarryStaysXmlWithReplacementCharacters(string contentType, string body, string quoted)
    {
        // Was: the ErrorResult itself could not be written as XML, Kestrel logged an unhandled exception and answered an
        // empty 500; then it went out in JSON. Now it keeps the negotiated XML (docs/protocol.md section 5).
        using var response = await SendAsync(contentType, Encoding.UTF8.GetBytes(body), "application/xml");

        Assert.Equal(HttpStatusCode.BadRequest, response.StatusCode);
        Assert.Equal("application/xml", response.Content.Headers.ContentType?.MediaType);
        var root = System.Xml.Linq.XDocument.Parse(await response.Content.ReadAsStringAsync()).Root!;
        Assert.Equal("INVALID_ARGUMENT", (string?)root.Element("code"));
        var text = (string?)root.Element("error_text") ?? "";
        Assert.True(text.Contains(quoted, StringComparison.Ordinal), text);
        await AssertNoErrorLogsAsync();
    }

    [Theory]
    [InlineData("type.googleapis.com/nope.Nope")]
    [InlineData("type.googleapis.com/protohttp.hardening.NoSuchType")]
    public async Task AJsonAnyOfATypeTheParserDoesNotKnowIs400(string typeUrl)
    {
        // Was: JsonParser's InvalidOperationException escaped the codec as a service failure (500, Error log).
        // A type of the service's own package that its file does not declare; the well-known types are always known.
        using var response = await SendAsync("application/json", Encoding.UTF8.GetBytes("{\"any\":{\"@type\":\"" + typeUrl + "\",\"value\":\"1s\"}}"), null);

        var error = await ErrorTests.AssertErrorAsync(response, HttpStatusCode.BadRequest, "INVALID_ARGUMENT");
        Assert.Contains("Type registry", error.ErrorText, StringComparison.Ordinal);
        await AssertNoErrorLogsAsync();
    }

    [Theory]
    [InlineData("&#0;")]
    [InlineData("&#x1F;")]
    [InlineData("&#xFFFE;")]
    [InlineData("&#xDC00;")]
    public async Task AnXmlCharacterReferenceXmlDoesNotAllowIs400(string reference)
    {
        // Was: accepted, so the echo could not be written back as XML (500, Error log).
        using var response = await SendAsync("application/xml", Encoding.UTF8.GetBytes($"<root><text>a{reference}b</text></root>"), "application/xml");

        var error = ErrorBody.TryRead(response.Content.Headers.ContentType?.ToString(), await response.Content.ReadAsByteArrayAsync());
        Assert.Equal(HttpStatusCode.BadRequest, response.StatusCode);
        Assert.NotNull(error);
        Assert.Contains("XML 1.0 does not allow", error.ErrorText, StringComparison.Ordinal);
        await AssertNoErrorLogsAsync();
    }

    public static TheoryData<string, string, string> UnwritableAnswers => new()
    {
        { "nul in XML", "application/xml", "XML 1.0 cannot carry" },
        { "control character in XML", "application/xml", "XML 1.0 cannot carry" },
        { "year 10000 in JSON", "application/json", "Non-normalized timestamp" },
        { "unknown Any in JSON", "application/json", "Type registry" },
    };

    [Theory]
    [MemberData(nameof(UnwritableAnswers))]
    public async Task AnAnswerTheNegotiatedFormatCannotCarryIs406NotA500(string sample, string accept, string reason)
    {
        // Each request is valid, and the echo then cannot be written in the format the client asked for.
        var (contentType, body) = sample switch
        {
            "nul in XML" => ("application/x-protobuf", new Specimen { Text = "a\0b" }.ToByteArray()),
            "control character in XML" => ("application/json", Encoding.UTF8.GetBytes("""{"text":"a\u0001b"}""")),
            "year 10000 in JSON" => ("application/x-protobuf", new Specimen { At = new Timestamp { Seconds = 253_402_300_800 } }.ToByteArray()),
            _ => ("application/x-protobuf", new Specimen { Any = new Any { TypeUrl = "type.googleapis.com/nope.Nope", Value = ByteString.CopyFrom(1, 2) } }.ToByteArray()),
        };

        using var response = await SendAsync(contentType, body, accept);

        Assert.Equal(HttpStatusCode.NotAcceptable, response.StatusCode);
        var error = ErrorBody.TryRead(response.Content.Headers.ContentType?.ToString(), await response.Content.ReadAsByteArrayAsync());
        Assert.NotNull(error);
        Assert.Equal("INVALID_ARGUMENT", error.Code);
        Assert.True(error.ErrorText.Contains(reason, StringComparison.Ordinal), error.ErrorText);
        await AssertNoErrorLogsAsync();
    }

    private async Task<HttpResponseMessage> SendAsync(string contentType, byte[] body, string? accept)
    {
        var request = new HttpRequestMessage(HttpMethod.Post, Echo) { Content = new ByteArrayContent(body) };
        request.Content.Headers.ContentType = MediaTypeHeaderValue.Parse(contentType);
        if (accept is not null)
        {
            request.Headers.Accept.ParseAdd(accept);
        }

        return await _server.Client.SendAsync(request);
    }

    private async Task AssertNoErrorLogsAsync() => Assert.Empty(await _server.Logs.ErrorsOnceEndedAsync());
}
