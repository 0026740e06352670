using System.Net;
using System.Net.Http.Headers;
using Microsoft.Extensions.Logging;
using ProtoHttp.FunctionalTests.Infrastructure;
using ProtoHttp.FunctionalTests.Protos.Streaming;

namespace ProtoHttp.FunctionalTests;

/// <summary>Server-streaming calls in every stream format, over HTTP/1.1 and h2c (docs/protocol.md section 10).</summary>
public sealed class ServerStreamingTests(SampleServerFixture fixture) : IClassFixture<SampleServerFixture>, IDisposable
{
    private const string Count = "/streaming_service.proto/Count";

    private readonly SampleServer _server = fixture.Server;
    private readonly HttpClient _http2 = fixture.Server.CreateHttp2Client();

    public static TheoryData<string, bool> EveryFormatAndProtocol()
    {
        var data = new TheoryData<string, bool>();
        foreach (var format in StreamWire.Formats)
        {
            data.Add(format, false);
            data.Add(format, true);
        }

        return data;
    }

    public void Dispose() => _http2.Dispose();

    [Theory]
    [MemberData(nameof(EveryFormatAndProtocol))]
    public async Task MessagesArriveInOrderThenTheEnd(string format, bool http2)
    {
        using var response = await SendAsync(new CountRequest { Count = 5 }, format, http2);

        Assert.Equal(HttpStatusCode.OK, response.StatusCode);
        Assert.Equal(format, response.Content.Headers.ContentType?.MediaType);
        Assert.Equal("no-cache", response.Headers.CacheControl?.ToString());
        var (messages, end) = await StreamWire.ReadAllAsync<Tick>(response);
        Assert.Equal([0, 1, 2, 3, 4], messages.Select(m => m.Sequence));
        Assert.Equal("OK", end.Code);
        Assert.Empty(await _server.Logs.ErrorsOnceEndedAsync());
    }

    [Theory]
    [MemberData(nameof(EveryFormatAndProtocol))]
    public async Task AnEmptyStreamIsOnlyItsEnd(string format, bool http2)
    {
        using var response = await SendAsync(new CountRequest(), format, http2);

        Assert.Equal(HttpStatusCode.OK, response.StatusCode);
        var (messages, end) = await StreamWire.ReadAllAsync<Tick>(response);
        Assert.Empty(messages);
        Assert.Equal("OK", end.Code);
    }

    [Theory]
    [MemberData(nameof(EveryFormatAndProtocol))]
    public async Task AFailureBeforeTheFirstMessageAnswersItsStatus(string format, bool http2)
    {
        using var response = await SendAsync(new CountRequest { Count = 3, FailCode = "NOT_FOUND", FailAfter = 0 }, format, http2);

        var errorType = format == StreamWire.ConnectProto ? "application/x-protobuf" : "application/json";
        await ErrorTests.AssertErrorAsync(response, HttpStatusCode.NotFound, "NOT_FOUND", "failed after 0", errorType);
        Assert.Equal("failed after 0", Assert.Single(response.Headers.GetValues("failure-reason")));
    }

    [Theory]
    [MemberData(nameof(EveryFormatAndProtocol))]
    public async Task AFailureAfterTheFirstMessageIsTheLastRecord(string format, bool http2)
    {
        var request = new CountRequest { Count = 5, FailCode = "ABORTED", FailAfter = 2 };
        request.ResponseTrailers.Add("x-rows", "2");

        using var response = await SendAsync(request, format, http2);

        Assert.Equal(HttpStatusCode.OK, response.StatusCode);
        var (messages, end) = await StreamWire.ReadAllAsync<Tick>(response);
        Assert.Equal([0, 1], messages.Select(m => m.Sequence));
        Assert.Equal("ABORTED", end.Code);
        Assert.Equal("failed after 2", end.ErrorText);
        Assert.Equal(["2"], end.Metadata["x-rows"]);
        Assert.Equal(["failed after 2"], end.Metadata["failure-reason"]);
    }

    [Theory]
    [MemberData(nameof(EveryFormatAndProtocol))]
    public async Task AServiceExceptionMidStreamKeepsItsDetailsPrivate(string format, bool http2)
    {
        using var response = await SendAsync(new CountRequest { Count = 3, FailCode = "PLAIN", FailAfter = 1 }, format, http2);

        var (messages, end) = await StreamWire.ReadAllAsync<Tick>(response);
        Assert.Single(messages);
        Assert.Equal("UNKNOWN", end.Code);
        Assert.Equal("The service failed to handle the call.", end.ErrorText);
        await _server.Logs.WhenRequestsEndedAsync(); // The failure's log line is in, and nothing of it comes after the Clear.
        Assert.Contains(_server.Logs.Errors, e => e.EventId.Name == "ServiceFailed" && e.Message == "Count: the service threw an exception.");
        _server.Logs.Clear();
    }

    [Theory]
    [MemberData(nameof(EveryFormatAndProtocol))]
    public async Task HeadersGoOutWithTheFirstMessageAndTrailersInTheLastRecord(string format, bool http2)
    {
        var request = new CountRequest { Count = 1 };
        request.ResponseHeaders.Add("x-served-by", "streaming");
        request.ResponseTrailers.Add("x-total", "1");

        using var response = await SendAsync(request, format, http2);

        Assert.Equal("streaming", Assert.Single(response.Headers.GetValues("x-served-by")));
        Assert.False(response.Headers.Contains("x-total"));
        var (_, end) = await StreamWire.ReadAllAsync<Tick>(response);
        Assert.Equal("OK", end.Code);
        Assert.Equal(["1"], end.Metadata["x-total"]);
    }

    [Theory]
    [MemberData(nameof(EveryFormatAndProtocol))]
    public async Task ADeadlineMidStreamFiresTheServiceTokenAndEndsTheStream(string format, bool http2)
    {
        _server.StreamProbe.Reset();
        var request = Post(new CountRequest { Count = 1, WaitForCancellation = true }, format);
        request.Headers.Add("Connect-Timeout-Ms", "2000");

        using var response = await Client(http2).SendAsync(request, HttpCompletionOption.ResponseHeadersRead);

        Assert.Equal(HttpStatusCode.OK, response.StatusCode);
        var (messages, end) = await StreamWire.ReadAllAsync<Tick>(response);
        Assert.Single(messages);
        Assert.Equal("DEADLINE_EXCEEDED", end.Code);
        Assert.Equal("The deadline of 2000 ms passed before the call completed.", end.ErrorText);
        await _server.StreamProbe.Cancelled.WaitAsync(TimeSpan.FromSeconds(30));
        Assert.Empty(await _server.Logs.ErrorsOnceEndedAsync());
    }

    [Theory]
    [MemberData(nameof(EveryFormatAndProtocol))]
    public async Task AClientThatLeavesMidStreamFiresTheServiceToken(string format, bool http2)
    {
        var errorsBefore = await _server.Logs.ErrorCountOnceEndedAsync();
        _server.StreamProbe.Reset();
        using (var response = await Client(http2).SendAsync(Post(new CountRequest { Count = 1, WaitForCancellation = true }, format), HttpCompletionOption.ResponseHeadersRead))
        {
            await using var records = StreamWire.ReadAsync<Tick>(response).GetAsyncEnumerator();
            Assert.True(await records.MoveNextAsync());
            Assert.Equal(0, records.Current.Message?.Sequence);
        }

        await _server.StreamProbe.Cancelled.WaitAsync(TimeSpan.FromSeconds(30));
        await WaitForAsync(() => _server.Logs.Entries.Any(e => e.EventId.Name == "ClientDisconnected" && e.Message.StartsWith("Count:", StringComparison.Ordinal)));
        Assert.Empty((await _server.Logs.ErrorsOnceEndedAsync()).Skip(errorsBefore));
    }

    [Theory]
    [MemberData(nameof(EveryFormatAndProtocol))]
    public async Task ADeadlineThatPassesWhileAWriteWaitsForTheReaderStillEndsTheStreamWithItsStatus(string format, bool http2)
    {
        // Kestrel aborts the connection (resets the h2 stream) when a token cancels a flush, which would cost the client
        // the end record it is owed: the deadline must cancel the waiting write some other way.
        _server.StreamProbe.Reset();
        var request = Post(new CountRequest { Count = 2048, PaddingBytes = 16 * 1024 }, format);
        request.Headers.Add("Connect-Timeout-Ms", "2000");
        using var response = await Client(http2).SendAsync(request, HttpCompletionOption.ResponseHeadersRead);
        await _server.StreamProbe.BlockedOnWrite.WaitAsync(TimeSpan.FromSeconds(30));

        await _server.StreamProbe.Cancelled.WaitAsync(TimeSpan.FromSeconds(30)); // The deadline passed while the service waited.

        var (messages, end) = await StreamWire.ReadAllAsync<Tick>(response);
        Assert.Equal(Enumerable.Range(0, messages.Count), messages.Select(m => m.Sequence));
        Assert.InRange(messages.Count, 1, 2047);
        Assert.Equal("DEADLINE_EXCEEDED", end.Code);
        Assert.Equal("The deadline of 2000 ms passed before the call completed.", end.ErrorText);
    }

    [Theory]
    [MemberData(nameof(EveryFormatAndProtocol))]
    public async Task ASlowReaderHoldsTheServiceBackInsteadOfFillingMemory(string format, bool http2)
    {
        // 2,048 ticks of 16 KiB: 32 MiB if the server buffered them all. It must not: the service's write has to wait
        // for the reader long before then, with what is in flight bounded by the server's and the sockets' buffers.
        const int Ticks = 2048;
        _server.StreamProbe.Reset();
        using var response = await Client(http2).SendAsync(
            Post(new CountRequest { Count = Ticks, PaddingBytes = 16 * 1024 }, format), HttpCompletionOption.ResponseHeadersRead);

        var writtenWhenBlocked = await _server.StreamProbe.BlockedOnWrite.WaitAsync(TimeSpan.FromSeconds(30));

        Assert.True(writtenWhenBlocked < Ticks / 2, $"the service wrote {writtenWhenBlocked} ticks before the network held it back");
        var (messages, end) = await StreamWire.ReadAllAsync<Tick>(response);
        Assert.Equal(Enumerable.Range(0, Ticks), messages.Select(m => m.Sequence));
        Assert.Equal("OK", end.Code);
    }

    [Theory]
    [InlineData(null, StreamWire.Lines)]
    [InlineData("*/*", StreamWire.Lines)]
    [InlineData("text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8", StreamWire.Events)]
    [InlineData("application/json", StreamWire.Lines)]
    [InlineData("application/x-protobuf", StreamWire.ConnectProto)]
    [InlineData("text/event-stream", StreamWire.Events)]
    public async Task AGetTakesItsRequestFromTheQuery(string? accept, string expected)
    {
        var request = new HttpRequestMessage(HttpMethod.Get, Count + "?count=3");
        if (accept is not null)
        {
            request.Headers.TryAddWithoutValidation("Accept", accept);
        }

        using var response = await _server.Client.SendAsync(request);

        Assert.Equal(expected, response.Content.Headers.ContentType?.MediaType);
        var (messages, _) = await StreamWire.ReadAllAsync<Tick>(response);
        Assert.Equal(3, messages.Count);
    }

    [Theory]
    [InlineData("application/json", StreamWire.Lines)]
    [InlineData("application/x-protobuf", StreamWire.ConnectProto)]
    [InlineData("application/xml", StreamWire.Lines)]
    [InlineData(StreamWire.ConnectProto, StreamWire.ConnectProto)]
    [InlineData(StreamWire.ConnectJson, StreamWire.ConnectJson)]
    public async Task WithoutAcceptTheStreamComesInTheRequestsOwnFormat(string contentType, string expected)
    {
        var message = new CountRequest { Count = 2 };
        HttpContent content = contentType switch
        {
            StreamWire.ConnectProto or StreamWire.ConnectJson => new ByteArrayContent(StreamWire.Envelope(message, contentType)),
            "application/xml" => new StringContent("<r><count>2</count></r>"),
            _ => Wire.Body(message, contentType),
        };
        content.Headers.ContentType = MediaTypeHeaderValue.Parse(contentType);

        using var response = await _server.Client.PostAsync(Count, content);

        Assert.Equal(expected, response.Content.Headers.ContentType?.MediaType);
        var (messages, _) = await StreamWire.ReadAllAsync<Tick>(response);
        Assert.Equal(2, messages.Count);
    }

    [Theory]
    [InlineData(".sse", StreamWire.Events)]
    [InlineData(".ndjson", StreamWire.Lines)]
    [InlineData(".json", StreamWire.Lines)]
    [InlineData(".pb", StreamWire.ConnectProto)]
    public async Task ASuffixForcesTheStreamFormat(string suffix, string expected)
    {
        using var response = await _server.Client.SendAsync(Post(new CountRequest { Count = 1 }, "application/json", path: Count + suffix));

        Assert.Equal(expected, response.Content.Headers.ContentType?.MediaType);
        var (messages, _) = await StreamWire.ReadAllAsync<Tick>(response);
        Assert.Single(messages);
    }

    [Fact]
    public async Task XmlHasNoStream()
    {
        using var bySuffix = await _server.Client.GetAsync(Count + ".xml?count=1");
        using var byAccept = await _server.Client.SendAsync(Post(new CountRequest { Count = 1 }, "application/xml"));

        var error = await ErrorTests.AssertErrorAsync(bySuffix, HttpStatusCode.NotAcceptable, "INVALID_ARGUMENT");
        Assert.Contains(".xml suffix", error.ErrorText);
        error = await ErrorTests.AssertErrorAsync(byAccept, HttpStatusCode.NotAcceptable, "INVALID_ARGUMENT");
        Assert.Contains("text/event-stream", error.ErrorText);
    }

    [Fact]
    public async Task ErrorsFoundBeforeTheCallAnswerAsForUnaryCalls()
    {
        using var verb = await _server.Client.SendAsync(new HttpRequestMessage(HttpMethod.Put, Count));
        using var badTimeout = await _server.Client.SendAsync(WithHeader(Post(new CountRequest(), StreamWire.Events), "Connect-Timeout-Ms", "soon"));
        using var badBody = await _server.Client.PostAsync(Count, new StringContent("{\"count\":", System.Text.Encoding.UTF8, "application/json"));

        await ErrorTests.AssertErrorAsync(verb, HttpStatusCode.MethodNotAllowed, "UNIMPLEMENTED", "The HTTP method PUT is not allowed here; use GET, POST.");
        await ErrorTests.AssertErrorAsync(badTimeout, HttpStatusCode.BadRequest, "INVALID_ARGUMENT");
        await ErrorTests.AssertErrorAsync(badBody, HttpStatusCode.BadRequest, "INVALID_ARGUMENT");
    }

    private StreamingClient Client(bool http2) => new(http2 ? _http2 : _server.Client, http2);

    private Task<HttpResponseMessage> SendAsync(CountRequest request, string format, bool http2) =>
        Client(http2).SendAsync(Post(request, format));

    private static HttpRequestMessage Post(CountRequest request, string accept, string path = Count) =>
        Wire.Post(path, request, "application/json", accept);

    private static HttpRequestMessage WithHeader(HttpRequestMessage request, string name, string value)
    {
        request.Headers.TryAddWithoutValidation(name, value);
        return request;
    }

    private static async Task WaitForAsync(Func<bool> condition)
    {
        for (var deadline = DateTime.UtcNow.AddSeconds(30); !condition(); await Task.Delay(20))
        {
            Assert.True(DateTime.UtcNow < deadline, "Waited 30 s for the server's log line.");
        }
    }
}
