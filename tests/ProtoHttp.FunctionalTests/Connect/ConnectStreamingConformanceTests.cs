using System.Net;
using Google.Protobuf;
using ProtoHttp.FunctionalTests.Infrastructure;
using ProtoHttp.FunctionalTests.Protos.Streaming;
using static ProtoHttp.FunctionalTests.Infrastructure.ConnectStreamCalls;

namespace ProtoHttp.FunctionalTests.Connect;

/// <summary>
/// The server-side streaming cases of the connectrpc/conformance suites (basic, errors, timeouts,
/// connect_server_unexpected, connect_client_code_to_http_code), each test naming its suite and case: once the media
/// type, verb and HTTP version are accepted, a Connect stream answers 200 and tells every outcome, a refusal of its
/// headers too, in the end-stream envelope.
/// </summary>
public sealed class ConnectStreamingConformanceTests(SampleServerFixture fixture) : IClassFixture<SampleServerFixture>, IDisposable
{
    private readonly SampleServer _server = fixture.Server;
    private readonly ConnectStreamCalls _calls = new(fixture.Server);

    public static TheoryData<string> Codes => new(Enum.GetValues<Grpc.Core.StatusCode>().Where(c => c != Grpc.Core.StatusCode.OK).Select(c => StatusMapping.ToCodeName(c)));

    public void Dispose() => _calls.Dispose();

    [Theory] // errors.yaml: server-stream/canceled … server-stream/unauthenticated, every code in the end-stream envelope.
    [MemberData(nameof(Codes))]
    public async Task EveryCodeIsToldInTheEndStreamEnvelope(string code)
    {
        using var response = await SendAsync(Count, new CountRequest { Count = 1, FailCode = code, FailAfter = 0 });

        var (ticks, end) = await ReadAsync<Tick>(response);
        Assert.Empty(ticks);
        Assert.Equal(code, end.Code);
        Assert.Equal("failed after 0", end.ErrorText);
    }

    [Fact] // errors.yaml: server-stream/error-with-metadata and server-stream/error-with-responses.
    public async Task AnErrorKeepsItsHeadersAndTrailers()
    {
        var request = new CountRequest
        {
            Count = 2, FailCode = "UNAUTHENTICATED", FailAfter = 2, ResponseHeaders = { ["x-custom-header"] = "foo" }, ResponseTrailers = { ["x-custom-trailer"] = "bing" },
        };

        using var response = await SendAsync(Count, request);

        Assert.Equal("foo", Assert.Single(response.Headers.GetValues("x-custom-header")));
        var (ticks, end) = await ReadAsync<Tick>(response);
        Assert.Equal(2, ticks.Count);
        Assert.Equal("UNAUTHENTICATED", end.Code);
        Assert.Equal(["bing"], end.Metadata["x-custom-trailer"]);
    }

    [Fact] // errors.yaml: server-stream/… and unary/unicode-error-message, as it applies to streams: the message survives the end-stream JSON.
    public async Task AUnicodeErrorMessageSurvives()
    {
        const string message = "\ntest with whitespace\r\nand Unicode BMP ☺ and non-BMP 😈\n";

        using var response = await SendAsync(Count, new CountRequest { Count = 1, FailCode = "INTERNAL", FailMessage = message });

        var (_, end) = await ReadAsync<Tick>(response);
        Assert.Equal("INTERNAL", end.Code);
        Assert.Equal(message, end.ErrorText);
    }

    [Fact] // basic.yaml: server-stream/success, its request header X-Conformance-Test with the values Value1 and Value2.
    public async Task ARequestHeaderWithTwoValuesReachesTheService()
    {
        var request = Request(Count, StreamWire.Envelope(new CountRequest { Count = 1, EchoHeader = "x-conformance-test" }, StreamWire.ConnectProto));
        request.Headers.Add("X-Conformance-Test", ["Value1", "Value2"]);

        using var response = await _server.Client.SendAsync(request);

        var (ticks, end) = await ReadAsync<Tick>(response);
        Assert.Equal("OK", end.Code);
        // HttpClient sends the two values on one line, as "Value1, Value2"; the service may see that or two entries.
        var text = Assert.Single(ticks).Text;
        Assert.True(text is "Value1|Value2" or "Value1, Value2", text);
    }

    [Theory] // The spec: a compressed envelope of zero bytes is an empty message, never decompressed.
    [InlineData(Count)]
    [InlineData(Sum)]
    public async Task AnEmptyCompressedEnvelopeIsAnEmptyMessage(string path)
    {
        var request = Request(path, StreamWire.Envelope([], flags: 0x01));
        request.Headers.Add("Connect-Content-Encoding", "gzip");

        using var response = await _server.Client.SendAsync(request);

        var end = path == Sum ? (await ReadAsync<Summary>(response)).End : (await ReadAsync<Tick>(response)).End;
        Assert.Equal("OK", end.Code);
    }

    [Fact] // basic.yaml: server-stream/no-responses, with a header and a trailer.
    public async Task AServerStreamWithNoResponses()
    {
        using var response = await SendAsync(Count, new CountRequest { ResponseHeaders = { ["x-custom-header"] = "foo" }, ResponseTrailers = { ["x-custom-trailer"] = "bing" } });

        Assert.Equal("foo", Assert.Single(response.Headers.GetValues("x-custom-header")));
        var (ticks, end) = await ReadAsync<Tick>(response);
        Assert.Empty(ticks);
        Assert.Equal("OK", end.Code);
        Assert.Equal(["bing"], end.Metadata["x-custom-trailer"]);
    }

    [Fact] // basic.yaml: client-stream/no-requests.
    public async Task AClientStreamWithNoRequests()
    {
        using var response = await SendAsync(Sum, []);

        var (summaries, end) = await ReadAsync<Summary>(response);
        Assert.Equal(0, Assert.Single(summaries).Count);
        Assert.Equal("OK", end.Code);
    }

    [Fact] // basic.yaml: bidi-stream/half-duplex/no-requests.
    public async Task ABidirectionalStreamWithNoRequests()
    {
        using var response = await SendAsync(Echo, [], http2: true);

        var (ticks, end) = await ReadAsync<Tick>(response);
        Assert.Empty(ticks);
        Assert.Equal("OK", end.Code);
    }

    [Fact] // errors.yaml: client-stream/error-multiple-requests; connect_client_code_to_http_code.yaml: client-stream/error-returns-success-http-code.
    public async Task AClientStreamsErrorIsStatus200()
    {
        using var response = await SendAsync(Sum, [new Tick { Sequence = 0, Text = "fail:ALREADY_EXISTS" }, new Tick { Sequence = 1 }]);

        Assert.Equal(HttpStatusCode.OK, response.StatusCode);
        var (summaries, end) = await ReadAsync<Summary>(response);
        Assert.Empty(summaries);
        Assert.Equal("ALREADY_EXISTS", end.Code);
    }

    [Fact] // errors.yaml: bidi-stream/full-duplex/error-with-responses; connect_client_code_to_http_code.yaml: bidi-stream/…/stream-error-returns-success-http-code.
    public async Task ABidirectionalStreamsErrorAfterResponsesIsStatus200()
    {
        using var response = await SendAsync(Echo, [new Tick { Sequence = 0 }, new Tick { Sequence = 1 }, new Tick { Sequence = 2, Text = "fail:FAILED_PRECONDITION" }], http2: true);

        Assert.Equal(HttpStatusCode.OK, response.StatusCode);
        var (ticks, end) = await ReadAsync<Tick>(response);
        Assert.Equal([0, 1], ticks.Select(t => t.Sequence));
        Assert.Equal("FAILED_PRECONDITION", end.Code);
    }

    [Fact] // timeouts.yaml: server-stream, a deadline the service outlives (the suite's 200 ms, longer here: see below).
    public async Task AServerStreamsDeadlineIsDeadlineExceeded()
    {
        var request = Request(Count, StreamWire.Envelope(new CountRequest { Count = 2, WaitForCancellation = true }, StreamWire.ConnectProto));
        // Both ticks must go out before the deadline, which on a loaded 2-core machine 200 ms did not always allow; the
        // service waits for its token, so the deadline is still what ends the stream.
        request.Headers.Add("Connect-Timeout-Ms", "2000");

        using var response = await _server.Client.SendAsync(request);

        var (ticks, end) = await ReadAsync<Tick>(response);
        Assert.Equal(2, ticks.Count);
        Assert.Equal("DEADLINE_EXCEEDED", end.Code);
    }

    [Theory] // timeouts.yaml: client-stream and bidi-stream/half-duplex, a deadline that passes while the client still sends.
    [InlineData(Sum, false, false)]
    [InlineData(Sum, false, true)]
    [InlineData(Sum, true, false)]
    [InlineData(Echo, true, false)]
    [InlineData("/streaming_service.proto/Sum", false, false)] // ProtoHttp's own route had the same fault.
    [InlineData("/streaming_service.proto/Sum", false, true)]
    public async Task ARequestStreamsDeadlineIsDeadlineExceeded(string path, bool http2, bool withLength)
    {
        var errorsBefore = _server.Logs.Errors.Count();
        _server.StreamProbe.Reset();
        using var client = _server.CreateOneConnectionClient(http2);
        var body = StreamWire.Envelope(new Tick { Sequence = 1 }, StreamWire.ConnectProto).Concat(StreamWire.Envelope(new Tick { Sequence = 2 }, StreamWire.ConnectProto)).ToArray();
        // The rest of the body comes once the server has called the deadline (HttpClient over HTTP/1.1 hands out the
        // answer only then), not after a pause: on a loaded machine the deadline's timer can fire late.
        var deadlinesBefore = _server.Logs.DeadlinesPassed;
        var held = new HeldBody(body, body.Length / 2 + 1, () => _server.Logs.WhenDeadlinesPassedAsync(deadlinesBefore + 1), StreamWire.ConnectProto);
        var request = new HttpRequestMessage(HttpMethod.Post, path) { Content = held, Version = client.DefaultRequestVersion, VersionPolicy = HttpVersionPolicy.RequestVersionExact };
        if (!withLength)
        {
            request.Headers.TransferEncodingChunked = true;
        }

        request.Headers.Add("Connect-Timeout-Ms", "200");

        using var response = await client.SendAsync(request);

        if (path.StartsWith("/streaming_service.proto/", StringComparison.Ordinal))
        {
            Assert.Equal(HttpStatusCode.GatewayTimeout, response.StatusCode); // Nothing was written yet: as a unary call.
        }
        else
        {
            Assert.Equal("DEADLINE_EXCEEDED", (await ReadAsync<Tick>(response)).End.Code);
        }

        // Regression: the call ended on its deadline while the service still read its request stream; that read, left
        // pending (or cancelled by its token, with a Content-Length), made Kestrel's drain of the rest of the body log
        // an Error and close the connection. Kestrel reads a connection's next request (or, on h2c, its next frames)
        // only after the rest of this body, so the next call's end is when any such Error has been logged.
        await held.Done.WaitAsync(TimeSpan.FromSeconds(30));
        var next = Request(Count, StreamWire.Envelope(new CountRequest { Count = 1 }, StreamWire.ConnectProto));
        (next.Version, next.VersionPolicy) = (client.DefaultRequestVersion, HttpVersionPolicy.RequestVersionExact);
        using var nextResponse = await client.SendAsync(next);
        Assert.Equal("OK", (await ReadAsync<Tick>(nextResponse)).End.Code);
        await _server.Logs.WhenRequestsEndedAsync();
        Assert.Empty(_server.Logs.Errors.Skip(errorsBefore));
    }

    [Theory] // timeouts.yaml: server-stream, the deadline passing while its one request envelope still arrives.
    [InlineData(false)]
    [InlineData(true)]
    public async Task AServerStreamsDeadlineDuringItsRequestIsDeadlineExceeded(bool withLength)
    {
        var errorsBefore = _server.Logs.Errors.Count();
        using var client = _server.CreateOneConnectionClient();
        var body = StreamWire.Envelope(new CountRequest { Count = 1, PaddingBytes = 10 }, StreamWire.ConnectProto);
        var deadlinesBefore = _server.Logs.DeadlinesPassed;
        var held = new HeldBody(body, 3, () => _server.Logs.WhenDeadlinesPassedAsync(deadlinesBefore + 1), StreamWire.ConnectProto);
        var request = new HttpRequestMessage(HttpMethod.Post, Count) { Content = held };
        request.Headers.TransferEncodingChunked = !withLength;
        request.Headers.Add("Connect-Timeout-Ms", "200");

        using var response = await client.SendAsync(request);

        Assert.Equal("DEADLINE_EXCEEDED", (await ReadAsync<Tick>(response)).End.Code);
        // As above: the next call on the connection comes after Kestrel's drain of the rest of this body.
        await held.Done.WaitAsync(TimeSpan.FromSeconds(30));
        using var next = await client.SendAsync(Request(Count, StreamWire.Envelope(new CountRequest { Count = 1 }, StreamWire.ConnectProto)));
        Assert.Equal("OK", (await ReadAsync<Tick>(next)).End.Code);
        await _server.Logs.WhenRequestsEndedAsync();
        Assert.Empty(_server.Logs.Errors.Skip(errorsBefore));
    }

    [Fact] // timeouts.yaml: bidi-stream/full-duplex, the deadline after a response went out.
    public async Task AFullDuplexStreamsDeadlineIsDeadlineExceeded()
    {
        var request = Request(Echo, StreamWire.Envelope(new Tick { Sequence = 7, Text = "hold" }, StreamWire.ConnectProto));
        request.Headers.Add("Connect-Timeout-Ms", "2000"); // The echo must go out first; "hold" keeps the call open until the deadline.

        using var response = await SendAsync(request, http2: true);

        var (ticks, end) = await ReadAsync<Tick>(response);
        Assert.Equal([7], ticks.Select(t => t.Sequence));
        Assert.Equal("DEADLINE_EXCEEDED", end.Code);
    }

    [Fact] // connect_server_unexpected.yaml: server-stream/no-request.
    public async Task AServerStreamWithNoRequestIsUnimplemented()
    {
        using var response = await _server.Client.SendAsync(Request(Count, []));

        Assert.Equal(HttpStatusCode.OK, response.StatusCode);
        var (_, end) = await ReadAsync<Tick>(response);
        Assert.Equal("UNIMPLEMENTED", end.Code);
    }

    [Fact] // connect_server_unexpected.yaml: server-stream/multiple-requests.
    public async Task AServerStreamWithTwoRequestsIsUnimplemented()
    {
        var envelope = StreamWire.Envelope(new CountRequest { Count = 1 }, StreamWire.ConnectProto);

        using var response = await _server.Client.SendAsync(Request(Count, [.. envelope, .. envelope]));

        Assert.Equal(HttpStatusCode.OK, response.StatusCode);
        var (ticks, end) = await ReadAsync<Tick>(response);
        Assert.Empty(ticks);
        Assert.Equal("UNIMPLEMENTED", end.Code);
    }

    [Theory] // The spec's streaming request headers, refused in the end-stream envelope with status 200 (connect-go does the same).
    [InlineData("Connect-Content-Encoding", "br", "UNIMPLEMENTED")] // connect_server_unexpected.yaml: unexpected-compression, as it applies to streams.
    [InlineData("Connect-Content-Encoding", "zstd", "UNIMPLEMENTED")]
    [InlineData("Connect-Timeout-Ms", "soon", "INVALID_ARGUMENT")]
    [InlineData("Connect-Timeout-Ms", "12345678901", "INVALID_ARGUMENT")]
    [InlineData("Connect-Protocol-Version", "2", "INVALID_ARGUMENT")]
    public async Task ABadHeaderIsToldInTheEndStreamEnvelope(string header, string value, string code)
    {
        foreach (var (path, body, http2) in new[]
        {
            (Count, StreamWire.Envelope(new CountRequest { Count = 1 }, StreamWire.ConnectProto), false),
            (Sum, StreamWire.Envelope(new Tick(), StreamWire.ConnectProto), false),
            (Echo, StreamWire.Envelope(new Tick(), StreamWire.ConnectProto), true),
        })
        {
            var request = Request(path, body);
            request.Headers.TryAddWithoutValidation(header, value);

            using var response = await SendAsync(request, http2);

            Assert.Equal(HttpStatusCode.OK, response.StatusCode);
            Assert.Equal("gzip", Assert.Single(response.Headers.GetValues("Connect-Accept-Encoding")));
            var (messages, end) = await ReadAsync<Tick>(response);
            Assert.Empty(messages);
            Assert.Equal(code, end.Code);
            Assert.Contains(value, end.ErrorText, StringComparison.Ordinal);
        }
    }

    [Fact] // A Connect-Protocol-Version of 1, or none, is what a streaming client may send.
    public async Task ProtocolVersionOneIsAccepted()
    {
        var request = Request(Count, StreamWire.Envelope(new CountRequest { Count = 1 }, StreamWire.ConnectProto));
        request.Headers.Add("Connect-Protocol-Version", "1");

        using var response = await _server.Client.SendAsync(request);

        var (ticks, end) = await ReadAsync<Tick>(response);
        Assert.Single(ticks);
        Assert.Equal("OK", end.Code);
    }

    private static Task<(List<T> Messages, StreamEnd End)> ReadAsync<T>(HttpResponseMessage response)
        where T : class, IMessage<T>, new()
    {
        Assert.Equal(HttpStatusCode.OK, response.StatusCode);
        return StreamWire.ReadAllAsync<T>(response);
    }

    private Task<HttpResponseMessage> SendAsync(string path, IMessage message) =>
        _server.Client.SendAsync(Request(path, StreamWire.Envelope(message, StreamWire.ConnectProto)));

    private Task<HttpResponseMessage> SendAsync(string path, IMessage[] messages, bool http2 = false) =>
        SendAsync(Request(path, messages.SelectMany(m => StreamWire.Envelope(m, StreamWire.ConnectProto)).ToArray()), http2);

    private Task<HttpResponseMessage> SendAsync(HttpRequestMessage request, bool http2) => _calls.SendAsync(request, http2);

    private static HttpRequestMessage Request(string path, byte[] body) => Post(path, body, StreamWire.ConnectProto);
}
