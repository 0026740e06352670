using System.Net;
using System.Net.Http.Headers;
using System.Text;
using System.Xml.Linq;
using Google.Protobuf;
using ProtoHttp.FunctionalTests.Connect;
using ProtoHttp.FunctionalTests.Infrastructure;
using ProtoHttp.FunctionalTests.Protos;
using ProtoHttp.FunctionalTests.Protos.Streaming;

namespace ProtoHttp.FunctionalTests;

/// <summary>
/// Authorization and rate-limit refusals on ProtoHttp's endpoints answer an ErrorResult in the negotiated format, or
/// Connect's error on Connect paths, with the scheme's <c>WWW-Authenticate</c> and the limiter's <c>Retry-After</c>
/// kept; an endpoint that is not ProtoHttp's keeps ASP.NET Core's empty answers.
/// </summary>
public sealed class RefusalTests(RefusalServerFixture fixture) : IClassFixture<RefusalServerFixture>
{
    private const string Unauthenticated = "The call needs an authenticated caller; authenticate and call again.";
    private const string PermissionDenied = "The caller is not allowed to make this call.";
    private const string Protobuf = "application/x-protobuf";
    private const string Json = "application/json";
    private const string Xml = "application/xml";

    private readonly HttpClient _client = fixture.Client;

    /// <summary>A request to one of the test service's unary methods in each format, and the ErrorResult format it negotiates.</summary>
    public static TheoryData<string, string> EveryFormat() => new()
    {
        { "protobuf", Protobuf },
        { "json", Json },
        { "xml", Xml },
        { "form", Json },
        { "get", Json },
        { "get-accepting-xml", Xml },
        { "xml-suffix", Xml },
        { "pb-suffix", Protobuf },
    };

    [Theory]
    [MemberData(nameof(EveryFormat))]
    public async Task AnAnonymousCallIs401WithAnErrorResultAndTheChallenge(string format, string errorType)
    {
        using var response = await _client.SendAsync(Request(format, "Context"));

        await AssertErrorAsync(response, HttpStatusCode.Unauthorized, "UNAUTHENTICATED", Unauthenticated, errorType);
        Assert.Equal(HeaderAuthenticationHandler.Challenge, response.Headers.WwwAuthenticate.ToString());
    }

    [Theory]
    [MemberData(nameof(EveryFormat))]
    public async Task ACallerWithoutTheRoleIs403WithAnErrorResult(string format, string errorType)
    {
        using var response = await _client.SendAsync(As("ada", "reader", Request(format, "Fail")));

        await AssertErrorAsync(response, HttpStatusCode.Forbidden, "PERMISSION_DENIED", PermissionDenied, errorType);
        Assert.Empty(response.Headers.WwwAuthenticate);
    }

    [Theory]
    [MemberData(nameof(EveryFormat))]
    public async Task ARateLimitedCallIs429WithAnErrorResultAndRetryAfter(string format, string errorType)
    {
        var key = Guid.NewGuid().ToString();
        using var first = await _client.SendAsync(Limited(key, Request(format, "Slow")));
        using var second = await _client.SendAsync(Limited(key, Request(format, "Slow")));

        Assert.Equal(HttpStatusCode.OK, first.StatusCode);
        var error = await AssertErrorAsync(second, HttpStatusCode.TooManyRequests, "RESOURCE_EXHAUSTED", text: null, errorType);
        var retryAfter = second.Headers.RetryAfter?.Delta ?? throw new InvalidOperationException("No Retry-After.");
        Assert.InRange(retryAfter, TimeSpan.FromMinutes(59), TimeSpan.FromHours(1));
        Assert.Equal($"The call was refused by a rate limit; retry after {retryAfter.TotalSeconds} s.", error.ErrorText);
        Assert.Equal("ran", Assert.Single(second.Headers.GetValues(GuardedApp.AppRejectionHeader)));
    }

    [Theory]
    [InlineData("POST", "/test_service.proto/Nope")]
    [InlineData("GET", "/streaming_service.proto")]
    public async Task AnUnknownMethodAndAGuardedProtoSourceAreRefusedWithAnErrorResultToo(string verb, string path)
    {
        using var response = await _client.SendAsync(new HttpRequestMessage(new HttpMethod(verb), path));

        await AssertErrorAsync(response, HttpStatusCode.Unauthorized, "UNAUTHENTICATED", Unauthenticated);
    }

    [Theory]
    [InlineData(Json)]
    [InlineData("application/proto")]
    public async Task ConnectCallsGetConnectsErrorForEachRefusal(string codec)
    {
        var key = Guid.NewGuid().ToString();
        using var anonymous = await _client.SendAsync(ConnectPost("/protohttp.tests.TestService/Context", new ContextRequest(), codec));
        using var reader = await _client.SendAsync(As("ada", "reader", ConnectPost("/protohttp.tests.TestService/Fail", new FailRequest(), codec)));
        using var first = await _client.SendAsync(Limited(key, ConnectPost("/protohttp.tests.TestService/Slow", new SlowRequest(), codec)));
        using var limited = await _client.SendAsync(Limited(key, ConnectPost("/protohttp.tests.TestService/Slow", new SlowRequest(), codec)));

        await ConnectUnaryTests.AssertErrorAsync(anonymous, 401, "unauthenticated", Unauthenticated);
        Assert.Equal(HeaderAuthenticationHandler.Challenge, anonymous.Headers.WwwAuthenticate.ToString());
        await ConnectUnaryTests.AssertErrorAsync(reader, 403, "permission_denied", PermissionDenied);
        Assert.Equal(HttpStatusCode.OK, first.StatusCode);
        await ConnectUnaryTests.AssertErrorAsync(limited, 429, "resource_exhausted", message: null);
        Assert.NotNull(limited.Headers.RetryAfter);
    }

    [Fact]
    public async Task AConnectGetIsRefusedWithConnectsError()
    {
        using var response = await _client.GetAsync("/protohttp.tests.TestService/Context?connect=v1&encoding=json&message=%7B%7D");

        await ConnectUnaryTests.AssertErrorAsync(response, 401, "unauthenticated", Unauthenticated);
    }

    [Theory]
    [InlineData("/test_service.proto/Watch.sse", Json)]
    [InlineData("/streaming_service.proto/Count.ndjson", Json)]
    [InlineData("/streaming_service.proto/Count", Json)]
    [InlineData("/streaming_service.proto/Count.pb", Protobuf)]
    public async Task AStreamIsRefusedBeforeItStartsWithAnErrorResult(string path, string errorType)
    {
        using var response = await _client.SendAsync(Wire.Post(path, new CountRequest(), Json, accept: StreamWire.Events));

        await AssertErrorAsync(response, HttpStatusCode.Unauthorized, "UNAUTHENTICATED", Unauthenticated, errorType);
        Assert.Equal(HeaderAuthenticationHandler.Challenge, response.Headers.WwwAuthenticate.ToString());
    }

    [Fact]
    public async Task AStreamIsForbiddenAndRateLimitedWithAnErrorResult()
    {
        var key = Guid.NewGuid().ToString();
        using var forbidden = await _client.SendAsync(As("ada", "reader", Wire.Post("/streaming_service.proto/Count.sse", new CountRequest(), Json)));
        using var first = await _client.SendAsync(Limited(key, As("ada", "admin", Wire.Post("/streaming_service.proto/Count.sse", new CountRequest(), Json))));
        using var limited = await _client.SendAsync(Limited(key, As("ada", "admin", Wire.Post("/streaming_service.proto/Count.sse", new CountRequest(), Json))));

        await AssertErrorAsync(forbidden, HttpStatusCode.Forbidden, "PERMISSION_DENIED", PermissionDenied);
        Assert.Equal(HttpStatusCode.OK, first.StatusCode);
        await AssertErrorAsync(limited, HttpStatusCode.TooManyRequests, "RESOURCE_EXHAUSTED");
    }

    [Theory]
    [InlineData(StreamWire.ConnectJson)]
    [InlineData(StreamWire.ConnectProto)]
    public async Task AConnectStreamIsRefusedWithConnectsError(string codec)
    {
        var content = new ByteArrayContent(StreamWire.Envelope(new CountRequest { Count = 1 }, codec));
        content.Headers.ContentType = MediaTypeHeaderValue.Parse(codec);
        var request = new HttpRequestMessage(HttpMethod.Post, "/protohttp.tests.streaming.StreamingService/Count") { Content = content };

        using var response = await _client.SendAsync(As("ada", "reader", request));

        await ConnectUnaryTests.AssertErrorAsync(response, 403, "permission_denied", PermissionDenied);
    }

    [Fact]
    public async Task AnEndpointThatIsNotProtoHttpsKeepsItsEmptyRefusals()
    {
        var key = Guid.NewGuid().ToString();
        using var anonymous = await _client.GetAsync(RefusalServerFixture.PlainPath);
        using var reader = await _client.SendAsync(As("ada", "reader", new HttpRequestMessage(HttpMethod.Get, RefusalServerFixture.PlainPath)));
        using var first = await _client.SendAsync(Limited(key, As("ada", "admin", new HttpRequestMessage(HttpMethod.Get, RefusalServerFixture.PlainPath))));
        using var limited = await _client.SendAsync(Limited(key, As("ada", "admin", new HttpRequestMessage(HttpMethod.Get, RefusalServerFixture.PlainPath))));

        Assert.Equal(HttpStatusCode.Unauthorized, anonymous.StatusCode);
        Assert.Equal(HeaderAuthenticationHandler.Challenge, anonymous.Headers.WwwAuthenticate.ToString());
        Assert.Empty(await anonymous.Content.ReadAsByteArrayAsync());
        Assert.Equal(HttpStatusCode.Forbidden, reader.StatusCode);
        Assert.Empty(await reader.Content.ReadAsByteArrayAsync());
        Assert.Equal("plain", await first.Content.ReadAsStringAsync());
        Assert.Equal(HttpStatusCode.ServiceUnavailable, limited.StatusCode); // RateLimiterOptions.RejectionStatusCode's default.
        Assert.Empty(await limited.Content.ReadAsByteArrayAsync());
        Assert.Null(limited.Headers.RetryAfter);
        Assert.Equal("ran", Assert.Single(limited.Headers.GetValues(GuardedApp.AppRejectionHeader)));
    }

    [Fact]
    public async Task AnAllowedCallIsServedAsBefore()
    {
        using var response = await _client.SendAsync(As("ada", "admin", Request("json", "Fail")));

        await AssertErrorAsync(response, HttpStatusCode.NotFound, "NOT_FOUND", "reached the service");
    }

    private static HttpRequestMessage Request(string format, string method)
    {
        var path = $"/test_service.proto/{method}";
        return format switch
        {
            "protobuf" => Wire.Post(path, new Empty(), Protobuf),
            "json" => Wire.Post(path, new Empty(), Json),
            "xml" => Post(path, "<root/>", Xml),
            "form" => Post(path, string.Empty, "application/x-www-form-urlencoded"),
            "get" => new HttpRequestMessage(HttpMethod.Get, path),
            "get-accepting-xml" => new HttpRequestMessage(HttpMethod.Get, path) { Headers = { { "Accept", Xml } } },
            "xml-suffix" => Wire.Post(path + ".xml", new Empty(), Json),
            "pb-suffix" => Wire.Post(path + ".pb", new Empty(), Json),
            _ => throw new ArgumentOutOfRangeException(nameof(format), format, null),
        };
    }

    private static HttpRequestMessage Post(string path, string body, string contentType) =>
        new(HttpMethod.Post, path) { Content = new StringContent(body, Encoding.UTF8, contentType) };

    private static HttpRequestMessage ConnectPost(string path, IMessage message, string codec)
    {
        var request = Wire.Post(path, message, codec);
        request.Headers.Add("Connect-Protocol-Version", "1");
        return request;
    }

    private static HttpRequestMessage As(string user, string roles, HttpRequestMessage request)
    {
        request.Headers.Add("X-Test-User", user);
        request.Headers.Add("X-Test-Roles", roles);
        return request;
    }

    private static HttpRequestMessage Limited(string key, HttpRequestMessage request)
    {
        request.Headers.Add(GuardedApp.LimitHeader, key);
        return request;
    }

    private static async Task<ErrorResult> AssertErrorAsync(
        HttpResponseMessage response, HttpStatusCode status, string code, string? text = null, string errorType = Json)
    {
        if (errorType != Xml)
        {
            return await ErrorTests.AssertErrorAsync(response, status, code, text, errorType);
        }

        Assert.Equal(status, response.StatusCode);
        Assert.Equal(Xml, response.Content.Headers.ContentType?.MediaType);
        var root = XElement.Parse(await response.Content.ReadAsStringAsync());
        var error = new ErrorResult { Code = (string)root.Element("code")!, ErrorText = (string)root.Element("error_text")! };
        Assert.Equal(code, error.Code);
        if (text is not null)
        {
            Assert.Equal(text, error.ErrorText);
        }

        return error;
    }
}
