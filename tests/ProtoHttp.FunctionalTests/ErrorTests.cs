using System.Net;
using System.Net.Http.Headers;
using System.Text;
using ProtoHttp.FunctionalTests.Infrastructure;
using ProtoHttp.FunctionalTests.Protos;
using ProtoService;

namespace ProtoHttp.FunctionalTests;

public sealed class ErrorTests(SampleServerFixture fixture) : IClassFixture<SampleServerFixture>
{
    private const string Search = "/ProtoService.proto/Search";

    private readonly SampleServer _server = fixture.Server;

    [Theory]
    [InlineData(null, "application/json")]
    [InlineData("application/x-protobuf", "application/x-protobuf")]
    [InlineData("application/json", "application/json")]
    public async Task AnUnknownMethodIs404NamingIt(string? accept, string errorType)
    {
        var request = new HttpRequestMessage(HttpMethod.Post, "/ProtoService.proto/Nope");
        if (accept is not null)
        {
            request.Headers.Accept.ParseAdd(accept);
        }

        using var response = await _server.Client.SendAsync(request);

        await AssertErrorAsync(response, HttpStatusCode.NotFound, "NOT_FOUND", "Method 'Nope' not found.", errorType);
    }

    [Fact]
    public async Task MethodNamesAreCaseSensitive()
    {
        using var response = await _server.Client.SendAsync(Wire.Post("/ProtoService.proto/search", new SearchRequest { Query = "chai" }, "application/json"));

        await AssertErrorAsync(response, HttpStatusCode.NotFound, "NOT_FOUND", "Method 'search' not found.");
    }

    [Theory]
    [InlineData("PUT")]
    [InlineData("DELETE")]
    [InlineData("PATCH")]
    public async Task OtherVerbsAre405WithAllow(string verb)
    {
        using var response = await _server.Client.SendAsync(new HttpRequestMessage(new HttpMethod(verb), Search));

        await AssertErrorAsync(response, HttpStatusCode.MethodNotAllowed, "UNIMPLEMENTED", $"The HTTP method {verb} is not allowed here; use GET, POST.");
        Assert.Equal(["GET", "POST"], response.Content.Headers.Allow);
    }

    [Theory]
    [InlineData("image/png", "The Content-Type 'image/png' is not a format this service reads.")]
    [InlineData("text/plain", "The Content-Type 'text/plain' is not a format this service reads.")]
    [InlineData("application/json; charset=iso-8859-1", "The Content-Type 'application/json; charset=iso-8859-1' names a charset other than utf-8; text formats must be UTF-8.")]
    public async Task AnUnreadableMediaTypeIs415WithAcceptPost(string contentType, string text)
    {
        var content = new ByteArrayContent("{}"u8.ToArray());
        content.Headers.ContentType = MediaTypeHeaderValue.Parse(contentType);

        using var response = await _server.Client.PostAsync(Search, content);

        await AssertErrorAsync(response, HttpStatusCode.UnsupportedMediaType, "INVALID_ARGUMENT", text);
        var acceptPost = string.Join(",", response.Headers.GetValues("Accept-Post"));
        Assert.Contains("application/x-protobuf", acceptPost);
        Assert.Contains("application/json", acceptPost);
    }

    [Fact]
    public async Task ABodyWithoutContentTypeIs415()
    {
        var content = new ByteArrayContent([1, 2, 3]);

        using var response = await _server.Client.PostAsync(Search, content);

        await AssertErrorAsync(response, HttpStatusCode.UnsupportedMediaType, "INVALID_ARGUMENT", "The request has a body but no Content-Type header.");
    }

    [Theory]
    [InlineData("image/png")]
    [InlineData("text/html")]
    [InlineData("application/json;q=0, application/x-protobuf;q=0, application/*;q=0, */*;q=0")]
    public async Task NothingAcceptableIs406AnsweredInJson(string accept)
    {
        using var response = await _server.Client.SendAsync(Wire.Post(Search, new SearchRequest { Query = "chai" }, "application/x-protobuf", accept));

        var error = await AssertErrorAsync(response, HttpStatusCode.NotAcceptable, "INVALID_ARGUMENT", errorType: "application/json");
        Assert.Contains("application/x-protobuf, application/protobuf", error.ErrorText);
    }

    [Theory]
    [InlineData("abc")]
    [InlineData("-5")]
    [InlineData("12345678901")]
    [InlineData("1.5")]
    [InlineData("")]
    public async Task ABadConnectTimeoutIs400(string value)
    {
        var request = Wire.Post(Search, new SearchRequest { Query = "chai" }, "application/json");
        request.Headers.TryAddWithoutValidation("Connect-Timeout-Ms", value);

        using var response = await _server.Client.SendAsync(request);

        var error = await AssertErrorAsync(response, HttpStatusCode.BadRequest, "INVALID_ARGUMENT");
        Assert.Contains("Connect-Timeout-Ms", error.ErrorText);
    }

    [Theory]
    [InlineData("application/x-protobuf", new byte[] { 0x0A, 0x05, 0x63 })]
    [InlineData("application/x-protobuf", new byte[] { 0xFF, 0xFF, 0xFF })]
    [InlineData("application/json", new byte[] { (byte)'{', (byte)'"' })]
    [InlineData("application/json", new byte[] { (byte)'[', (byte)']' })]
    [InlineData("application/json", new byte[] { (byte)'{', (byte)'"', (byte)'x', (byte)'"', (byte)':', (byte)'1', (byte)'}' })]
    [InlineData("application/json", new byte[] { (byte)'"', 0xC3, 0x28, (byte)'"' })]
    public async Task AMalformedBodyIs400(string contentType, byte[] body)
    {
        var errorsBefore = await _server.Logs.ErrorCountOnceEndedAsync();
        var content = new ByteArrayContent(body);
        content.Headers.ContentType = MediaTypeHeaderValue.Parse(contentType);

        using var response = await _server.Client.PostAsync(Search, content);

        var error = await AssertErrorAsync(response, HttpStatusCode.BadRequest, "INVALID_ARGUMENT", errorType: Wire.IsProtobuf(contentType) ? "application/x-protobuf" : "application/json");
        Assert.NotEmpty(error.ErrorText);
        Assert.Empty((await _server.Logs.ErrorsOnceEndedAsync()).Skip(errorsBefore));
    }

    [Fact]
    public async Task AMissingRequiredFieldIs400NamingIt()
    {
        using var response = await _server.Client.SendAsync(Wire.Post(Search, new SearchRequest { PageNumber = 1 }, "application/x-protobuf"));

        await AssertErrorAsync(response, HttpStatusCode.BadRequest, "INVALID_ARGUMENT", "Missing required field 'query'.", "application/x-protobuf");
    }

    [Fact]
    public async Task AServiceExceptionIs500WithAFixedSentenceAndAnErrorLog()
    {
        using var response = await _server.Client.SendAsync(Wire.Post(Search, new SearchRequest { Query = "" }, "application/json"));

        var error = await AssertErrorAsync(response, HttpStatusCode.InternalServerError, "UNKNOWN", "The service failed to handle the call.");
        Assert.DoesNotContain("ArgumentException", error.ErrorText);
        Assert.Contains(await _server.Logs.ErrorsOnceEndedAsync(), e => e.Exception is ArgumentException && e.Category.StartsWith("ProtoHttp", StringComparison.Ordinal));
    }

    /// <summary>Every way an answer carries a plain exception's failure: each request format, GET, Connect, each stream framing's last record.</summary>
    public static TheoryData<string> LeakCalls() => new()
    {
        "application/json", "application/x-protobuf", "application/xml", "application/x-www-form-urlencoded", "GET", "GET .xml", "GET .pb",
        "connect application/proto", "connect application/json",
        "stream " + StreamWire.Events, "stream " + StreamWire.Lines, "stream " + StreamWire.ConnectProto, "stream " + StreamWire.ConnectJson,
        "connect-stream " + StreamWire.ConnectProto, "connect-stream " + StreamWire.ConnectJson,
    };

    [Theory]
    [MemberData(nameof(LeakCalls))]
    public async Task ServiceExceptionTextsNeverLeakOutsideDevelopment(string call)
    {
        using var response = await _server.Client.SendAsync(LeakRequest(call, "db password"));

        var body = await response.Content.ReadAsByteArrayAsync();
        var everything = Encoding.UTF8.GetString(body) + "\n" + string.Join("\n", response.Headers.Concat(response.Content.Headers).Concat(response.TrailingHeaders)
            .Select(h => $"{h.Key}: {string.Join(",", h.Value)}"));
        Assert.DoesNotContain("db password", everything);
        Assert.DoesNotContain("Secret internal detail", everything);
        Assert.DoesNotContain("InvalidOperationException", everything);
        Assert.DoesNotContain(" at ", everything);
        // The failure itself did arrive, in the generic words, so the absences above are not those of an empty answer.
        if (call.StartsWith("stream ", StringComparison.Ordinal) || call.StartsWith("connect-stream ", StringComparison.Ordinal))
        {
            Assert.Equal(HttpStatusCode.OK, response.StatusCode);
            var (ticks, end) = await StreamWire.ReadAllAsync<Protos.Streaming.Tick>(response);
            Assert.Single(ticks);
            Assert.Equal(("UNKNOWN", "The service failed to handle the call."), (end.Code, end.ErrorText));
        }
        else
        {
            Assert.Equal(HttpStatusCode.InternalServerError, response.StatusCode);
            Assert.Contains(call.StartsWith("connect ", StringComparison.Ordinal) ? "\"unknown\"" : "UNKNOWN", everything);
            Assert.Contains("The service failed to handle the call.", everything);
        }
    }

    private static HttpRequestMessage LeakRequest(string call, string detail)
    {
        var fail = new FailRequest { Detail = detail };
        // One tick first, so the failure can only go out in the stream's last record.
        var count = new Protos.Streaming.CountRequest { Count = 2, FailCode = "PLAIN", FailAfter = 1, FailMessage = detail };
        switch (call.Split(' '))
        {
            case ["GET"]:
                return new HttpRequestMessage(HttpMethod.Get, "/test_service.proto/Fail?detail=" + Uri.EscapeDataString(detail));
            case ["GET", var suffix]:
                return new HttpRequestMessage(HttpMethod.Get, $"/test_service.proto/Fail{suffix}?detail=" + Uri.EscapeDataString(detail));
            case ["connect", var type]:
                return Wire.Post("/protohttp.tests.TestService/Fail", fail, type);
            case ["stream", var accept]:
                return Wire.Post("/streaming_service.proto/Count", count, "application/json", accept);
            case ["connect-stream", var envelopes]:
                var request = new HttpRequestMessage(HttpMethod.Post, "/protohttp.tests.streaming.StreamingService/Count")
                {
                    Content = new ByteArrayContent(StreamWire.Envelope(count, envelopes)),
                };
                request.Content.Headers.ContentType = new MediaTypeHeaderValue(envelopes);
                return request;
            case ["application/xml"]:
                return WithContent(new StringContent($"<root><detail>{detail}</detail></root>"), call);
            case ["application/x-www-form-urlencoded"]:
                return WithContent(new StringContent("detail=" + Uri.EscapeDataString(detail)), call);
            default:
                return Wire.Post("/test_service.proto/Fail", fail, call);
        }

        static HttpRequestMessage WithContent(HttpContent content, string type)
        {
            content.Headers.ContentType = new MediaTypeHeaderValue(type);
            return new HttpRequestMessage(HttpMethod.Post, "/test_service.proto/Fail") { Content = content };
        }
    }

    [Fact]
    public async Task DetailedErrorsAreOnInDevelopmentWithoutTypeNamesOrStackTraces()
    {
        await using var server = await SampleServer.StartAsync("Development");

        using var response = await server.Client.SendAsync(Wire.Post("/test_service.proto/Fail", new FailRequest { Detail = "db down" }, "application/json"));

        var error = await AssertErrorAsync(response, HttpStatusCode.InternalServerError, "UNKNOWN");
        Assert.Equal("The service failed to handle the call. Secret internal detail: db down", error.ErrorText);
    }

    [Theory]
    [InlineData("INVALID_ARGUMENT", HttpStatusCode.BadRequest)]
    [InlineData("FAILED_PRECONDITION", HttpStatusCode.BadRequest)]
    [InlineData("OUT_OF_RANGE", HttpStatusCode.BadRequest)]
    [InlineData("UNAUTHENTICATED", HttpStatusCode.Unauthorized)]
    [InlineData("PERMISSION_DENIED", HttpStatusCode.Forbidden)]
    [InlineData("NOT_FOUND", HttpStatusCode.NotFound)]
    [InlineData("ALREADY_EXISTS", HttpStatusCode.Conflict)]
    [InlineData("ABORTED", HttpStatusCode.Conflict)]
    [InlineData("RESOURCE_EXHAUSTED", HttpStatusCode.TooManyRequests)]
    [InlineData("CANCELLED", (HttpStatusCode)499)]
    [InlineData("UNIMPLEMENTED", HttpStatusCode.NotImplemented)]
    [InlineData("UNAVAILABLE", HttpStatusCode.ServiceUnavailable)]
    [InlineData("DEADLINE_EXCEEDED", HttpStatusCode.GatewayTimeout)]
    [InlineData("INTERNAL", HttpStatusCode.InternalServerError)]
    [InlineData("DATA_LOSS", HttpStatusCode.InternalServerError)]
    [InlineData("UNKNOWN", HttpStatusCode.InternalServerError)]
    public async Task AnRpcExceptionAnswersItsStatusAndDetailInEveryEnvironment(string code, HttpStatusCode status)
    {
        foreach (var format in new[] { "application/json", "application/x-protobuf" })
        {
            using var response = await _server.Client.SendAsync(Wire.Post("/test_service.proto/Fail", new FailRequest { Code = code, Detail = "why: " + code }, format));

            await AssertErrorAsync(response, status, code, "why: " + code, format);
            Assert.Equal("why: " + code, Assert.Single(response.Headers.GetValues("failure-reason")));
        }
    }

    public static TheoryData<string, Func<HttpRequestMessage>, HttpStatusCode> Precedence() => new()
    {
        { "404 before 405", () => new HttpRequestMessage(HttpMethod.Put, "/ProtoService.proto/Nope"), HttpStatusCode.NotFound },
        { "405 before 415", () => WithBody(HttpMethod.Put, "image/png", null, null), HttpStatusCode.MethodNotAllowed },
        { "415 before 406", () => WithBody(HttpMethod.Post, "image/png", "image/png", null), HttpStatusCode.UnsupportedMediaType },
        { "406 before 400 timeout", () => WithBody(HttpMethod.Post, "application/json", "image/png", "x"), HttpStatusCode.NotAcceptable },
        { "400 timeout before 413", () => Oversized("x"), HttpStatusCode.BadRequest },
        { "413 before 400 body", () => Oversized(null), HttpStatusCode.RequestEntityTooLarge },
    };

    [Theory]
    [MemberData(nameof(Precedence))]
    public async Task TheFirstErrorInProtocolOrderAnswers(string rule, Func<HttpRequestMessage> request, HttpStatusCode expected)
    {
        using var response = await _server.Client.SendAsync(request());

        Assert.True(expected == response.StatusCode, $"{rule}: got {(int)response.StatusCode}");
    }

    private static HttpRequestMessage WithBody(HttpMethod verb, string contentType, string? accept, string? timeout)
    {
        var content = new ByteArrayContent("{\"query\":\"chai\"}"u8.ToArray());
        content.Headers.ContentType = MediaTypeHeaderValue.Parse(contentType);
        var request = new HttpRequestMessage(verb, Search) { Content = content };
        if (accept is not null)
        {
            request.Headers.TryAddWithoutValidation("Accept", accept);
        }

        if (timeout is not null)
        {
            request.Headers.TryAddWithoutValidation("Connect-Timeout-Ms", timeout);
        }

        return request;
    }

    private static HttpRequestMessage Oversized(string? timeout)
    {
        // Not JSON at all, so a server that read it would answer 400 instead of 413.
        var content = new ByteArrayContent(Encoding.ASCII.GetBytes(new string('x', 5 * 1024 * 1024)));
        content.Headers.ContentType = MediaTypeHeaderValue.Parse("application/json");
        var request = new HttpRequestMessage(HttpMethod.Post, Search) { Content = content };
        if (timeout is not null)
        {
            request.Headers.TryAddWithoutValidation("Connect-Timeout-Ms", timeout);
        }

        return request;
    }

    internal static async Task<ErrorResult> AssertErrorAsync(
        HttpResponseMessage response, HttpStatusCode status, string code, string? text = null, string errorType = "application/json")
    {
        Assert.Equal(status, response.StatusCode);
        Assert.Equal(errorType, response.Content.Headers.ContentType?.MediaType);
        var error = await Wire.ReadErrorAsync(response);
        Assert.Equal(code, error.Code);
        if (text is not null)
        {
            Assert.Equal(text, error.ErrorText);
        }

        return error;
    }
}
