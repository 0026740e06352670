using System.Net;
using System.Net.Http.Headers;
using System.Text;
using System.Text.Json;
using Google.Protobuf;
using Google.Protobuf.WellKnownTypes;
using Northwind;
using ProtoHttp.FunctionalTests.Infrastructure;
using ProtoHttp.FunctionalTests.Protos;

namespace ProtoHttp.FunctionalTests.Connect;

/// <summary>
/// Connect unary calls over raw HTTP, at the Connect paths of the test and sample services. The cases follow the
/// server-side cases of connectrpc/conformance's test suites (basic, errors, timeouts, connect_with_get,
/// connect_server_unexpected, compression), named in each test.
/// </summary>
public sealed class ConnectUnaryTests(SampleServerFixture fixture) : IClassFixture<SampleServerFixture>
{
    private const string Echo = "/protohttp.tests.TestService/Echo";
    private const string Fail = "/protohttp.tests.TestService/Fail";
    private const string Slow = "/protohttp.tests.TestService/Slow";
    private const string Context = "/protohttp.tests.TestService/Context";
    private const string GetOrders = "/Northwind.NorthwindService/GetOrders";

    private static readonly Tree Sample = new() { Name = "root", Child = new Tree { Name = "leaf", Shade = Shade.Dark }, Data = ByteString.CopyFromUtf8("\0\x01bytes") };

    private readonly SampleServer _server = fixture.Server;

    public static TheoryData<string, bool> CodecsAndProtocols => new()
    {
        { "application/proto", false }, { "application/json", false }, { "application/proto", true }, { "application/json", true },
    };

    [Theory] // basic.yaml: unary success, both codecs, HTTP/1.1 and h2c.
    [MemberData(nameof(CodecsAndProtocols))]
    public async Task AUnaryCallAnswersInTheRequestsCodec(string codec, bool http2)
    {
        using var response = await SendAsync(Post(Echo, Sample, codec), http2);

        Assert.Equal(HttpStatusCode.OK, response.StatusCode);
        Assert.Equal(codec, response.Content.Headers.ContentType!.MediaType);
        Assert.Equal(Sample, await ReadAsync<Tree>(response, codec));
    }

    [Fact] // basic.yaml: headers and trailers; trailers travel as trailer- headers in unary responses.
    public async Task ResponseHeadersAndTrailersGoOutAsHeadersAndTrailerHeaders()
    {
        var request = new ContextRequest { ResponseHeaders = { ["x-header"] = "h" }, ResponseTrailers = { ["x-trailer"] = "t" } };

        using var response = await _server.Client.SendAsync(Post(Context, request, "application/proto"));

        Assert.Equal(HttpStatusCode.OK, response.StatusCode);
        Assert.Equal("h", Assert.Single(response.Headers.GetValues("x-header")));
        Assert.Equal("t", Assert.Single(response.Headers.GetValues("trailer-x-trailer")));
    }

    [Theory] // errors.yaml and connect_client_code_to_http_code.yaml: each code's HTTP status and its JSON error.
    [InlineData("NOT_FOUND", 404, "not_found")]
    [InlineData("CANCELLED", 499, "canceled")]
    [InlineData("INVALID_ARGUMENT", 400, "invalid_argument")]
    [InlineData("FAILED_PRECONDITION", 400, "failed_precondition")]
    [InlineData("ALREADY_EXISTS", 409, "already_exists")]
    [InlineData("PERMISSION_DENIED", 403, "permission_denied")]
    [InlineData("UNAUTHENTICATED", 401, "unauthenticated")]
    [InlineData("RESOURCE_EXHAUSTED", 429, "resource_exhausted")]
    [InlineData("UNIMPLEMENTED", 501, "unimplemented")]
    [InlineData("UNAVAILABLE", 503, "unavailable")]
    [InlineData("DATA_LOSS", 500, "data_loss")]
    public async Task AnRpcExceptionAnswersConnectsErrorJson(string code, int httpStatus, string connectCode)
    {
        using var response = await _server.Client.SendAsync(Post(Fail, new FailRequest { Code = code, Detail = "why not" }, "application/proto"));

        var error = await AssertErrorAsync(response, httpStatus, connectCode, "why not");
        Assert.False(error.TryGetProperty("details", out _));
        Assert.Equal("why not", Assert.Single(response.Headers.GetValues("trailer-failure-reason")));
    }

    [Fact] // errors.yaml: error details from a google.rpc.Status, type without its URL prefix, value base64 unpadded.
    public async Task TheDetailsOfARichStatusTravelInTheErrorJson()
    {
        var leaf = new Leaf { Url = "https://example.com/why" };
        var status = ConnectWire.RpcStatus(5, "not here", Any.Pack(leaf));

        using var response = await _server.Client.SendAsync(Post(Fail, new FailRequest { Code = "NOT_FOUND", Detail = "not here", StatusDetails = status }, "application/json"));

        var error = await AssertErrorAsync(response, 404, "not_found", "not here");
        var detail = Assert.Single(error.GetProperty("details").EnumerateArray().ToList());
        Assert.Equal("protohttp.tests.Leaf", detail.GetProperty("type").GetString());
        var value = detail.GetProperty("value").GetString()!;
        Assert.DoesNotContain('=', value);
        Assert.Equal(leaf, Leaf.Parser.ParseFrom(Convert.FromBase64String(value.PadRight((value.Length + 3) / 4 * 4, '='))));
        Assert.False(response.Headers.Contains("trailer-grpc-status-details-bin"));
    }

    [Fact] // errors.yaml: an exception that is not an RpcException hides its text outside Development.
    public async Task APlainExceptionIsUnknownWithoutItsText()
    {
        using var response = await _server.Client.SendAsync(Post(Fail, new FailRequest { Detail = "secret" }, "application/json"));

        var error = await AssertErrorAsync(response, 500, "unknown", "The service failed to handle the call.");
        Assert.DoesNotContain("secret", error.ToString());
    }

    [Fact] // timeouts.yaml: Connect-Timeout-Ms passes before the service answers.
    public async Task APassedTimeoutIsDeadlineExceeded()
    {
        var request = Post(Slow, new SlowRequest { DelayMs = 10_000 }, "application/proto");
        request.Headers.Add("Connect-Timeout-Ms", "200");

        using var response = await _server.Client.SendAsync(request);

        await AssertErrorAsync(response, 504, "deadline_exceeded", "The deadline of 200 ms passed before the call completed.");
    }

    [Fact] // timeouts.yaml: the deadline passes while the body still arrives.
    public async Task ADeadlineWhileTheBodyArrivesLeavesTheConnectionUsable()
    {
        var errorsBefore = _server.Logs.Errors.Count();
        var connectionsBefore = _server.Logs.ConnectionsStarted;
        using var client = _server.CreateOneConnectionClient();
        var body = new SlowRequest { DelayMs = 1 }.ToByteArray();
        // The rest of the body comes once the server has called the deadline, not after a pause that a late timer outlasts.
        var deadlinesBefore = _server.Logs.DeadlinesPassed;
        var held = new HeldBody(body, 1, () => _server.Logs.WhenDeadlinesPassedAsync(deadlinesBefore + 1), "application/proto");
        var request = new HttpRequestMessage(HttpMethod.Post, Slow) { Content = held };
        request.Headers.Add("Connect-Timeout-Ms", "200");

        using var response = await client.SendAsync(request);

        await AssertErrorAsync(response, 504, "deadline_exceeded", "The deadline of 200 ms passed before the call completed.");
        // Regression: the deadline cancelled the body read by its token, which leaves Kestrel's reader of a body with a
        // Content-Length mid-read; its drain of the rest of the body then logged an Error and closed the connection.
        // The drain ends before Kestrel reads the connection's next request, so that request's end is the moment to look.
        await held.Done.WaitAsync(TimeSpan.FromSeconds(30));
        using var next = await client.SendAsync(Post(Slow, new SlowRequest { DelayMs = 1 }, "application/proto"));
        Assert.Equal(HttpStatusCode.OK, next.StatusCode);
        await _server.Logs.WhenRequestsEndedAsync();
        Assert.Empty(_server.Logs.Errors.Skip(errorsBefore));
        Assert.Equal(1, _server.Logs.ConnectionsStarted - connectionsBefore); // The next call went on the same connection.
    }

    [Theory] // connect_with_get.yaml: GET of a NO_SIDE_EFFECTS method, message as JSON text or base64url protobuf.
    [InlineData("json", false)]
    [InlineData("proto", true)]
    [InlineData("json", true)]
    public async Task AGetOfAMethodWithoutSideEffectsIsCalled(string encoding, bool base64)
    {
        var message = encoding == "json" ? Encoding.UTF8.GetBytes("{}") : new OrdersRequest().ToByteArray();
        var text = base64 ? Convert.ToBase64String(message).TrimEnd('=').Replace('+', '-').Replace('/', '_') : Encoding.UTF8.GetString(message);
        var query = $"?connect=v1&encoding={encoding}&message={Uri.EscapeDataString(text)}" + (base64 ? "&base64=1" : "");

        using var response = await _server.Client.GetAsync(GetOrders + query);

        Assert.Equal(HttpStatusCode.OK, response.StatusCode);
        var orders = await ReadAsync<OrderList>(response, encoding == "json" ? "application/json" : "application/proto");
        Assert.Equal(830, orders.Orders.Count);
    }

    [Fact] // connect_with_get.yaml: a GET of a method with side effects is refused.
    public async Task AGetOfAMethodWithSideEffectsIs405()
    {
        using var response = await _server.Client.GetAsync(Echo + "?encoding=json&message=%7B%7D");

        await AssertErrorAsync(response, 405, "unimplemented", "The HTTP method GET is not allowed here; use POST.");
        Assert.Equal("POST", response.Content.Headers.Allow.Single());
    }

    [Theory] // connect_with_get.yaml and connect_server_unexpected.yaml: bad GET parameters.
    [InlineData("?message=%7B%7D", 400, "invalid_argument", "A Connect GET needs the query parameter encoding (json or proto).")]
    [InlineData("?encoding=xml&message=x", 415, "invalid_argument", "The encoding 'xml' is not a Connect codec this service reads; use json or proto.")]
    [InlineData("?encoding=proto&base64=1&message=*!", 400, "invalid_argument", "The query parameter message is not valid base64url.")]
    [InlineData("?encoding=json&base64=2&message=x", 400, "invalid_argument", "The query parameter base64 is '2'; it must be 1 or absent.")]
    [InlineData("?connect=v2&encoding=json&message=%7B%7D", 400, "invalid_argument", "The query parameter connect is 'v2'; this server speaks v1.")]
    [InlineData("?encoding=json&message=%7B%7D&compression=br", 501, "unimplemented", "The compression 'br' is not supported; this server reads gzip, identity.")]
    public async Task ABadGetIsRefusedWithWhatWasWrong(string query, int httpStatus, string code, string message)
    {
        using var response = await _server.Client.GetAsync(GetOrders + query);

        await AssertErrorAsync(response, httpStatus, code, message);
    }

    [Theory] // connect_server_unexpected.yaml: a codec the server does not speak is 415, with what it does speak.
    [InlineData("application/xml")]
    [InlineData("application/x-protobuf")]
    [InlineData("application/json; charset=latin1")]
    public async Task AnUnknownCodecIs415(string contentType)
    {
        var request = new HttpRequestMessage(HttpMethod.Post, Echo) { Content = new ByteArrayContent([]) };
        request.Content.Headers.TryAddWithoutValidation("Content-Type", contentType);

        using var response = await _server.Client.SendAsync(request);

        Assert.Equal(415, (int)response.StatusCode);
        Assert.Equal("application/proto, application/json", string.Join(", ", response.Headers.GetValues("Accept-Post")));
    }

    [Fact] // connect_server_unexpected.yaml: a wrong verb.
    public async Task APutIs405()
    {
        using var response = await _server.Client.PutAsync(Echo, Wire.Body(Sample, "application/proto"));

        await AssertErrorAsync(response, 405, "unimplemented", "The HTTP method PUT is not allowed here; use POST.");
    }

    [Fact] // connect_server_unexpected.yaml: an unknown procedure (procedure names are case-sensitive).
    public async Task AProcedureInTheWrongCaseIsNotFound()
    {
        using var response = await _server.Client.SendAsync(Post("/protohttp.tests.TestService/echo", Sample, "application/proto"));

        await AssertErrorAsync(response, 404, "unimplemented", "No procedure /protohttp.tests.TestService/echo here; procedure names are case-sensitive.");
    }

    [Fact]
    public async Task AnotherProtocolVersionIsRefused()
    {
        var request = Post(Echo, Sample, "application/proto");
        request.Headers.Add("Connect-Protocol-Version", "2");

        using var response = await _server.Client.SendAsync(request);

        await AssertErrorAsync(response, 400, "invalid_argument", "The Connect-Protocol-Version header is '2'; this server speaks version 1.");
    }

    [Theory] // compression.yaml: a gzipped request, and a gzipped answer for a client that accepts it.
    [InlineData("application/proto")]
    [InlineData("application/json")]
    public async Task GzipGoesBothWays(string codec)
    {
        var orders = new OrderList { Orders = { Enumerable.Range(1, 50).Select(i => new Order { OrderId = i, ShipName = "Vins et alcools Chevalier" }) } };
        var request = new HttpRequestMessage(HttpMethod.Post, "/Northwind.NorthwindService/Roundtrip") { Content = Gzipped(Wire.Body(orders, codec)) };
        request.Headers.AcceptEncoding.ParseAdd("gzip");

        using var response = await _server.Client.SendAsync(request);

        Assert.Equal(HttpStatusCode.OK, response.StatusCode);
        Assert.Equal("gzip", Assert.Single(response.Content.Headers.ContentEncoding));
        var body = ConnectWire.Gunzip(await response.Content.ReadAsByteArrayAsync());
        Assert.Equal(orders, codec == "application/proto" ? OrderList.Parser.ParseFrom(body) : JsonParser.Default.Parse<OrderList>(Encoding.UTF8.GetString(body)));
    }

    [Theory] // The spec: a client that sends no Accept-Encoding accepts the compression of its request (POST) or message (GET).
    [InlineData(false, null, true)]
    [InlineData(true, null, true)]
    [InlineData(false, "identity", false)]
    public async Task WithoutAcceptEncodingTheRequestsCompressionIsAccepted(bool get, string? acceptEncoding, bool gzipped)
    {
        var orders = new OrderList { Orders = { Enumerable.Range(1, 50).Select(i => new Order { OrderId = i, ShipName = "Vins et alcools Chevalier" }) } };
        var request = get
            ? new HttpRequestMessage(HttpMethod.Get, "/Northwind.NorthwindService/GetOrders?connect=v1&encoding=proto&base64=1&compression=gzip&message="
                + Convert.ToBase64String(ConnectWire.Gzip(new Northwind.OrdersRequest().ToByteArray())).TrimEnd('=').Replace('+', '-').Replace('/', '_'))
            : new HttpRequestMessage(HttpMethod.Post, "/Northwind.NorthwindService/Roundtrip") { Content = Gzipped(Wire.Body(orders, "application/proto")) };
        if (acceptEncoding is not null)
        {
            request.Headers.AcceptEncoding.ParseAdd(acceptEncoding);
        }

        using var response = await _server.Client.SendAsync(request);

        Assert.Equal(HttpStatusCode.OK, response.StatusCode);
        Assert.Equal(gzipped, response.Content.Headers.ContentEncoding.Contains("gzip"));
    }

    [Fact] // The spec: servers must not attempt to decompress zero-length request content; it is the empty message.
    public async Task AnEmptyGzipBodyIsTheEmptyMessage()
    {
        var content = new ByteArrayContent([]);
        content.Headers.ContentType = new System.Net.Http.Headers.MediaTypeHeaderValue("application/proto");
        content.Headers.ContentEncoding.Add("gzip");

        using var response = await _server.Client.PostAsync(Echo, content);

        Assert.Equal(HttpStatusCode.OK, response.StatusCode);
        Assert.Empty(await response.Content.ReadAsByteArrayAsync());
    }

    [Fact] // compression.yaml: responses under the minimum size go out uncompressed.
    public async Task ASmallAnswerIsNotCompressed()
    {
        var request = Post(Echo, Sample, "application/proto");
        request.Headers.AcceptEncoding.ParseAdd("gzip");

        using var response = await _server.Client.SendAsync(request);

        Assert.Empty(response.Content.Headers.ContentEncoding);
        Assert.Equal(Sample, Tree.Parser.ParseFrom(await response.Content.ReadAsByteArrayAsync()));
    }

    [Fact] // connect_server_unexpected.yaml: an unknown Content-Encoding.
    public async Task AnUnknownCompressionIsUnimplemented()
    {
        var request = Post(Echo, Sample, "application/proto");
        request.Content!.Headers.ContentEncoding.Add("br");

        using var response = await _server.Client.SendAsync(request);

        await AssertErrorAsync(response, 501, "unimplemented", "The compression 'br' is not supported; this server reads gzip, identity.");
        Assert.Equal("gzip, identity", string.Join(", ", response.Headers.GetValues("Accept-Encoding")));
    }

    [Fact] // A gzip bomb: 16 MiB of zeros in a few KiB; the test service's limit is 64 KiB.
    public async Task AGzipBombIsResourceExhaustedAtTheLimit()
    {
        var bomb = new ByteArrayContent(ConnectWire.Gzip(new byte[16 * 1024 * 1024]));
        bomb.Headers.ContentType = new MediaTypeHeaderValue("application/proto");
        bomb.Headers.ContentEncoding.Add("gzip");

        using var response = await _server.Client.SendAsync(new HttpRequestMessage(HttpMethod.Post, Echo) { Content = bomb });

        await AssertErrorAsync(response, 429, "resource_exhausted", "The decompressed message is larger than the limit of 65536 bytes.");
    }

    [Fact]
    public async Task BodiesThatAreNotGzipAreInvalid()
    {
        var content = new ByteArrayContent([1, 2, 3, 4]);
        content.Headers.ContentType = new MediaTypeHeaderValue("application/proto");
        content.Headers.ContentEncoding.Add("gzip");

        using var response = await _server.Client.SendAsync(new HttpRequestMessage(HttpMethod.Post, Echo) { Content = content });

        var error = await AssertErrorAsync(response, 400, "invalid_argument", message: null);
        Assert.StartsWith("The message is not valid gzip", error.GetProperty("message").GetString());
    }

    [Fact] // An unreadable message is invalid_argument with what was wrong, as on ProtoHttp's own routes.
    public async Task AnUnreadableMessageIsInvalidArgument()
    {
        var content = new StringContent("{\"nope\": 1}", Encoding.UTF8, "application/json");

        using var response = await _server.Client.SendAsync(new HttpRequestMessage(HttpMethod.Post, Echo) { Content = content });

        var error = await AssertErrorAsync(response, 400, "invalid_argument", message: null);
        Assert.Contains("nope", error.GetProperty("message").GetString());
    }

    internal static async Task<JsonElement> AssertErrorAsync(HttpResponseMessage response, int httpStatus, string code, string? message)
    {
        Assert.Equal(httpStatus, (int)response.StatusCode);
        Assert.Equal("application/json", response.Content.Headers.ContentType?.MediaType);
        var error = JsonDocument.Parse(await response.Content.ReadAsStringAsync()).RootElement;
        Assert.Equal(code, error.GetProperty("code").GetString());
        if (message is not null)
        {
            Assert.Equal(message, error.GetProperty("message").GetString());
        }

        return error;
    }

    private Task<HttpResponseMessage> SendAsync(HttpRequestMessage request, bool http2)
    {
        if (!http2)
        {
            return _server.Client.SendAsync(request);
        }

        request.RequestUri = new Uri(_server.Http2Address, request.RequestUri!);
        request.Version = HttpVersion.Version20;
        request.VersionPolicy = HttpVersionPolicy.RequestVersionExact;
        return _server.Client.SendAsync(request);
    }

    private static HttpRequestMessage Post(string path, IMessage message, string codec) =>
        new(HttpMethod.Post, path) { Content = Wire.Body(message, codec) };

    private static async Task<T> ReadAsync<T>(HttpResponseMessage response, string codec)
        where T : IMessage<T>, new()
    {
        var parser = new MessageParser<T>(() => new T());
        return codec == "application/proto"
            ? parser.ParseFrom(await response.Content.ReadAsByteArrayAsync())
            : JsonParser.Default.Parse<T>(await response.Content.ReadAsStringAsync());
    }

    private static ByteArrayContent Gzipped(HttpContent content)
    {
        var gzipped = new ByteArrayContent(ConnectWire.Gzip(content.ReadAsByteArrayAsync().Result));
        gzipped.Headers.ContentType = content.Headers.ContentType;
        gzipped.Headers.ContentEncoding.Add("gzip");
        return gzipped;
    }
}
