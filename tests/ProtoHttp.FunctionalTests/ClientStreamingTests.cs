using System.Net;
using System.Net.Http.Headers;
using ProtoHttp.FunctionalTests.Infrastructure;
using ProtoHttp.FunctionalTests.Protos.Streaming;

namespace ProtoHttp.FunctionalTests;

/// <summary>Client-streaming calls: envelope request bodies read as they arrive, over HTTP/1.1 and h2c (docs/protocol.md section 10).</summary>
public sealed class ClientStreamingTests(SampleServerFixture fixture) : IClassFixture<SampleServerFixture>, IDisposable
{
    private const string Sum = "/streaming_service.proto/Sum";

    private readonly SampleServer _server = fixture.Server;
    private readonly HttpClient _http2 = fixture.Server.CreateHttp2Client();

    public static TheoryData<string, string, bool> EveryRequestAndResponseFormat()
    {
        var data = new TheoryData<string, string, bool>();
        foreach (var request in new[] { StreamWire.ConnectProto, StreamWire.ConnectJson })
        {
            foreach (var response in StreamWire.Formats)
            {
                data.Add(request, response, false);
                data.Add(request, response, true);
            }
        }

        return data;
    }

    public void Dispose() => _http2.Dispose();

    [Theory]
    [MemberData(nameof(EveryRequestAndResponseFormat))]
    public async Task TheServiceReadsEveryMessageInOrder(string requestType, string responseType, bool http2)
    {
        var body = Envelopes(requestType, Enumerable.Range(0, 5).Select(i => new Tick { Sequence = i }));

        using var response = await Client(http2).SendAsync(Post(body, requestType, responseType));

        Assert.Equal(HttpStatusCode.OK, response.StatusCode);
        Assert.Equal(responseType, response.Content.Headers.ContentType?.MediaType);
        var (summary, end) = await ReadSummaryAsync(response);
        Assert.Equal(5, summary.Count);
        Assert.Equal([0, 1, 2, 3, 4], summary.Sequences);
        Assert.Equal("OK", end.Code);
    }

    [Theory]
    [MemberData(nameof(EveryRequestAndResponseFormat))]
    public async Task AnEmptyRequestStreamIsNoMessages(string requestType, string responseType, bool http2)
    {
        using var response = await Client(http2).SendAsync(Post([], requestType, responseType));

        var (summary, end) = await ReadSummaryAsync(response);
        Assert.Equal(0, summary.Count);
        Assert.Equal("OK", end.Code);
    }

    [Theory]
    [InlineData(false)]
    [InlineData(true)]
    public async Task MessagesAreReadAsTheyArrive(bool http2)
    {
        // The service must see the first message while the body is still open: the request is a stream, not a buffer.
        _server.StreamProbe.Reset();
        var requests = new EnvelopeUpload(StreamWire.ConnectProto).WithType();
        var call = Client(http2).SendAsync(new HttpRequestMessage(HttpMethod.Post, Sum) { Content = requests });
        await requests.WriteAsync(new Tick { Sequence = 7 });
        await _server.StreamProbe.Started.WaitAsync(TimeSpan.FromSeconds(10));

        await requests.WriteAsync(new Tick { Sequence = 8 });
        requests.Complete();

        using var response = await call;
        var (summary, _) = await ReadSummaryAsync(response);
        Assert.Equal([7, 8], summary.Sequences);
    }

    [Theory]
    [InlineData(false)]
    [InlineData(true)]
    public async Task AServiceFailureAnswersItsStatusSinceNothingWasWritten(bool http2)
    {
        var body = Envelopes(StreamWire.ConnectProto, [new Tick { Sequence = 0 }, new Tick { Sequence = 1, Text = "fail:NOT_FOUND" }]);

        using var response = await Client(http2).SendAsync(Post(body, StreamWire.ConnectProto, StreamWire.ConnectJson));

        await ErrorTests.AssertErrorAsync(response, HttpStatusCode.NotFound, "NOT_FOUND", "failed at 1");
    }

    [Fact]
    public async Task AMessageUpToTheLimitIsRead()
    {
        // Over the in-place limit, so the envelope is copied out of the request pipe as it arrives.
        var tick = new Tick { Sequence = 1, Padding = Google.Protobuf.ByteString.CopyFrom(new byte[(4 * 1024 * 1024) - 16]) };

        using var response = await _server.Client.SendAsync(Post(Envelopes(StreamWire.ConnectProto, [tick, tick]), StreamWire.ConnectProto, StreamWire.Lines));

        var (summary, _) = await ReadSummaryAsync(response);
        Assert.Equal(2, summary.Count);
    }

    [Theory]
    [InlineData(false)]
    [InlineData(true)]
    public async Task AMessageOverTheLimitIs413(bool http2)
    {
        var payload = new byte[(4 * 1024 * 1024) + 1];

        using var response = await Client(http2).SendAsync(Post(StreamWire.Envelope(payload), StreamWire.ConnectProto, StreamWire.Lines));

        await ErrorTests.AssertErrorAsync(response, HttpStatusCode.RequestEntityTooLarge, "RESOURCE_EXHAUSTED",
            "A request envelope holds 4194305 bytes, more than the limit of 4194304 bytes per message.");
        Assert.Empty(await _server.Logs.ErrorsOnceEndedAsync());
    }

    public static TheoryData<string, byte[], string> MalformedBodies() => new()
    {
        { "compressed flag", StreamWire.Envelope([8, 1], flags: 0x01), "compressed flag" },
        { "end-stream flag", StreamWire.Envelope([8, 1], flags: 0x02), "flags 0x02" },
        { "length past the body", [0, 0, 0, 0, 10, 8, 1], "ends inside an envelope" },
        { "truncated header", [0, 0, 0], "ends inside an envelope" },
        { "not a Tick", StreamWire.Envelope([0xff, 0xff, 0xff]), "does not hold a valid message" },
    };

    [Theory]
    [MemberData(nameof(MalformedBodies))]
    public async Task AMalformedEnvelopeIs400NamingTheFault(string fault, byte[] body, string text)
    {
        var valid = StreamWire.Envelope(new Tick { Sequence = 1 }, StreamWire.ConnectProto);

        using var response = await _server.Client.SendAsync(Post([.. valid, .. body], StreamWire.ConnectProto, StreamWire.Lines));

        var error = await ErrorTests.AssertErrorAsync(response, HttpStatusCode.BadRequest, "INVALID_ARGUMENT");
        Assert.True(error.ErrorText.Contains(text, StringComparison.Ordinal), $"{fault}: {error.ErrorText}");
        Assert.Empty(await _server.Logs.ErrorsOnceEndedAsync());
    }

    [Theory]
    [InlineData("application/x-protobuf")]
    [InlineData("application/json")]
    [InlineData(null)]
    public async Task ABodyThatIsNotEnvelopesIs415(string? contentType)
    {
        var content = new ByteArrayContent([]);
        if (contentType is not null)
        {
            content.Headers.ContentType = MediaTypeHeaderValue.Parse(contentType);
        }

        using var response = await _server.Client.PostAsync(Sum, content);

        var errorType = contentType == "application/x-protobuf" ? contentType : "application/json"; // The request's own format.
        var error = await ErrorTests.AssertErrorAsync(response, HttpStatusCode.UnsupportedMediaType, "INVALID_ARGUMENT", errorType: errorType);
        Assert.Contains("application/connect+proto", error.ErrorText);
        Assert.Equal("application/connect+proto, application/connect+json", string.Join(", ", response.Headers.GetValues("Accept-Post")));
    }

    [Fact]
    public async Task GetIs405()
    {
        using var response = await _server.Client.GetAsync(Sum);

        await ErrorTests.AssertErrorAsync(response, HttpStatusCode.MethodNotAllowed, "UNIMPLEMENTED", "The HTTP method GET is not allowed here; use POST.");
    }

    internal static byte[] Envelopes(string mediaType, IEnumerable<Tick> ticks) =>
        ticks.SelectMany(t => StreamWire.Envelope(t, mediaType)).ToArray();

    private static async Task<(Summary Summary, StreamEnd End)> ReadSummaryAsync(HttpResponseMessage response)
    {
        var (messages, end) = await StreamWire.ReadAllAsync<Summary>(response);
        return (Assert.Single(messages), end);
    }

    private StreamingClient Client(bool http2) => new(http2 ? _http2 : _server.Client, http2);

    private static HttpRequestMessage Post(byte[] body, string contentType, string accept)
    {
        var content = new ByteArrayContent(body);
        content.Headers.ContentType = MediaTypeHeaderValue.Parse(contentType);
        var request = new HttpRequestMessage(HttpMethod.Post, Sum) { Content = content };
        request.Headers.TryAddWithoutValidation("Accept", accept);
        return request;
    }
}
