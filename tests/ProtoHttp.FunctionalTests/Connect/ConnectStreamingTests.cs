using System.Net;
using Google.Protobuf;
using ProtoHttp.FunctionalTests.Infrastructure;
using ProtoHttp.FunctionalTests.Protos.Streaming;
using static ProtoHttp.FunctionalTests.Infrastructure.ConnectStreamCalls;

namespace ProtoHttp.FunctionalTests.Connect;

/// <summary>
/// Connect streaming at the Connect paths of the streaming test service: envelopes in, envelopes of the same codec
/// out, and once the request is accepted always 200 with the outcome in the end-stream envelope (connectrpc/conformance
/// suites basic, errors and compression, as they apply to a server's streams).
/// </summary>
public sealed class ConnectStreamingTests(SampleServerFixture fixture) : IClassFixture<SampleServerFixture>, IDisposable
{
    private readonly SampleServer _server = fixture.Server;
    private readonly ConnectStreamCalls _calls = new(fixture.Server);

    public static TheoryData<string, bool> CodecsAndProtocols => new()
    {
        { StreamWire.ConnectProto, false }, { StreamWire.ConnectJson, false }, { StreamWire.ConnectProto, true }, { StreamWire.ConnectJson, true },
    };

    public void Dispose() => _calls.Dispose();

    [Theory] // basic.yaml: server streaming.
    [MemberData(nameof(CodecsAndProtocols))]
    public async Task ServerStreamingAnswersInTheRequestsCodec(string codec, bool http2)
    {
        var request = new CountRequest { Count = 3, ResponseHeaders = { ["x-header"] = "h" }, ResponseTrailers = { ["x-trailer"] = "t" } };

        using var response = await SendAsync(http2, Post(Count, StreamWire.Envelope(request, codec), codec));

        Assert.Equal(HttpStatusCode.OK, response.StatusCode);
        Assert.Equal(codec, response.Content.Headers.ContentType?.MediaType);
        Assert.Equal("h", Assert.Single(response.Headers.GetValues("x-header")));
        var (ticks, end) = await StreamWire.ReadAllAsync<Tick>(response);
        Assert.Equal([0, 1, 2], ticks.Select(t => t.Sequence));
        Assert.Equal("OK", end.Code);
        Assert.Equal(["t"], end.Metadata["x-trailer"]);
    }

    [Theory] // errors.yaml: a failure before the first message is still status 200, told in the end-stream envelope.
    [InlineData(0)]
    [InlineData(2)]
    public async Task AFailureIsToldInTheEndStreamEnvelope(int failAfter)
    {
        var request = new CountRequest { Count = 5, FailCode = "NOT_FOUND", FailAfter = failAfter };

        using var response = await _server.Client.SendAsync(Post(Count, StreamWire.Envelope(request, StreamWire.ConnectProto), StreamWire.ConnectProto));

        Assert.Equal(HttpStatusCode.OK, response.StatusCode);
        var (ticks, end) = await StreamWire.ReadAllAsync<Tick>(response);
        Assert.Equal(failAfter, ticks.Count);
        Assert.Equal("NOT_FOUND", end.Code);
    }

    [Fact] // errors.yaml: a rich status's details travel in the end-stream envelope's error, and not in its metadata.
    public async Task TheEndStreamErrorCarriesTheStatusDetails()
    {
        var leaf = new Tick { Sequence = 42, Text = "why" };
        var request = new CountRequest { Count = 1, FailCode = "FAILED_PRECONDITION", FailAfter = 1, StatusDetails = ConnectWire.RpcStatus(9, "not now", Google.Protobuf.WellKnownTypes.Any.Pack(leaf)) };

        using var response = await _server.Client.SendAsync(Post(Count, StreamWire.Envelope(request, StreamWire.ConnectJson), StreamWire.ConnectJson));

        var body = await response.Content.ReadAsByteArrayAsync();
        var end = body.AsSpan(5 + System.Buffers.Binary.BinaryPrimitives.ReadInt32BigEndian(body.AsSpan(1)));
        Assert.Equal(0x02, end[0]);
        using var json = System.Text.Json.JsonDocument.Parse(end[5..].ToArray());
        var error = json.RootElement.GetProperty("error");
        Assert.Equal("failed_precondition", error.GetProperty("code").GetString());
        var detail = Assert.Single(error.GetProperty("details").EnumerateArray().ToList());
        Assert.Equal("protohttp.tests.streaming.Tick", detail.GetProperty("type").GetString());
        var value = detail.GetProperty("value").GetString()!;
        Assert.Equal(leaf, Tick.Parser.ParseFrom(Convert.FromBase64String(value.PadRight((value.Length + 3) / 4 * 4, '='))));
        var metadata = json.RootElement.GetProperty("metadata");
        Assert.True(metadata.TryGetProperty("failure-reason", out _));
        Assert.False(metadata.TryGetProperty("grpc-status-details-bin", out _));
    }

    [Fact] // A request envelope that is not a message: invalid_argument, in the end-stream envelope.
    public async Task ABadRequestEnvelopeIsInvalidArgumentInTheEndStream()
    {
        using var response = await _server.Client.SendAsync(Post(Count, StreamWire.Envelope([0x0a, 0x05, 0x01]), StreamWire.ConnectProto));

        Assert.Equal(HttpStatusCode.OK, response.StatusCode);
        var (ticks, end) = await StreamWire.ReadAllAsync<Tick>(response);
        Assert.Empty(ticks);
        Assert.Equal("INVALID_ARGUMENT", end.Code);
    }

    [Theory] // basic.yaml: client streaming.
    [MemberData(nameof(CodecsAndProtocols))]
    public async Task ClientStreamingReadsEveryEnvelope(string codec, bool http2)
    {
        var body = Enumerable.Range(0, 4).SelectMany(i => StreamWire.Envelope(new Tick { Sequence = i }, codec)).ToArray();

        using var response = await SendAsync(http2, Post(Sum, body, codec));

        var (summaries, end) = await StreamWire.ReadAllAsync<Summary>(response);
        Assert.Equal([0, 1, 2, 3], Assert.Single(summaries).Sequences);
        Assert.Equal("OK", end.Code);
    }

    [Theory] // basic.yaml: bidirectional streaming, over HTTP/2.
    [InlineData(StreamWire.ConnectProto)]
    [InlineData(StreamWire.ConnectJson)]
    public async Task BidirectionalStreamingEchoesOverHttp2(string codec)
    {
        var body = Enumerable.Range(0, 3).SelectMany(i => StreamWire.Envelope(new Tick { Sequence = i }, codec)).ToArray();

        using var response = await SendAsync(http2: true, Post(Echo, body, codec));

        var (ticks, end) = await StreamWire.ReadAllAsync<Tick>(response);
        Assert.Equal([0, 1, 2], ticks.Select(t => t.Sequence));
        Assert.Equal("OK", end.Code);
    }

    [Fact]
    public async Task BidirectionalStreamingOverHttp1Is505()
    {
        using var response = await _server.Client.SendAsync(Post(Echo, StreamWire.Envelope(new Tick(), StreamWire.ConnectProto), StreamWire.ConnectProto));

        await ConnectUnaryTests.AssertErrorAsync(response, 505, "unimplemented", message: null);
    }

    [Theory] // compression.yaml: request envelopes flagged compressed hold gzip when Connect-Content-Encoding says so.
    [InlineData(false)]
    [InlineData(true)]
    public async Task GzippedRequestEnvelopesAreRead(bool http2)
    {
        var body = Enumerable.Range(0, 3).SelectMany(i => StreamWire.Envelope(ConnectWire.Gzip(new Tick { Sequence = i, Text = new string('x', 500) }.ToByteArray()), flags: 0x01)).ToArray();
        var request = Post(Sum, body, StreamWire.ConnectProto);
        request.Headers.Add("Connect-Content-Encoding", "gzip");

        using var response = await SendAsync(http2, request);

        var (summaries, end) = await StreamWire.ReadAllAsync<Summary>(response);
        Assert.Equal("OK", end.Code);
        Assert.Equal([0, 1, 2], Assert.Single(summaries).Sequences);
    }

    [Theory] // connect_server_unexpected.yaml, unexpected-compressed-message: a compressed envelope without an agreed encoding is internal.
    [InlineData(Sum, null)]
    [InlineData(Sum, "identity")]
    [InlineData(Count, "identity")]
    [InlineData(Count, null)]
    public async Task ACompressedEnvelopeWithoutAnEncodingIsInternal(string path, string? encoding)
    {
        IMessage message = path == Sum ? new Tick { Sequence = 1 } : new CountRequest { Count = 1 };
        var request = Post(path, StreamWire.Envelope(ConnectWire.Gzip(message.ToByteArray()), flags: 0x01), StreamWire.ConnectProto);
        if (encoding is not null)
        {
            request.Headers.Add("Connect-Content-Encoding", encoding);
        }

        using var response = await _server.Client.SendAsync(request);

        Assert.Equal(HttpStatusCode.OK, response.StatusCode);
        var (messages, end) = await StreamWire.ReadAllAsync<Tick>(response);
        Assert.Empty(messages);
        Assert.Equal("INTERNAL", end.Code);
        Assert.Contains("compressed flag", end.ErrorText);
    }

    [Fact] // A gzip bomb in one envelope: resource_exhausted at the limit, never the whole of it in memory.
    public async Task AGzipBombEnvelopeIsResourceExhausted()
    {
        var request = Post(Sum, StreamWire.Envelope(ConnectWire.Gzip(new byte[64 * 1024 * 1024]), flags: 0x01), StreamWire.ConnectProto);
        request.Headers.Add("Connect-Content-Encoding", "gzip");

        using var response = await _server.Client.SendAsync(request);

        var (_, end) = await StreamWire.ReadAllAsync<Summary>(response);
        Assert.Equal("RESOURCE_EXHAUSTED", end.Code);
    }

    [Theory] // connect_server_unexpected.yaml: not a streaming codec, and a wrong verb.
    [InlineData("application/proto", 415)]
    [InlineData("application/json", 415)]
    [InlineData("text/event-stream", 415)]
    public async Task AnotherCodecIs415(string contentType, int status)
    {
        using var response = await _server.Client.SendAsync(Post(Count, new CountRequest { Count = 1 }.ToByteArray(), contentType));

        await ConnectUnaryTests.AssertErrorAsync(response, status, "invalid_argument", message: null);
        Assert.Equal("application/connect+proto, application/connect+json", string.Join(", ", response.Headers.GetValues("Accept-Post")));
    }

    [Fact]
    public async Task AGetIs405()
    {
        using var response = await _server.Client.GetAsync(Count);

        await ConnectUnaryTests.AssertErrorAsync(response, 405, "unimplemented", "The HTTP method GET is not allowed here; use POST.");
    }

    private Task<HttpResponseMessage> SendAsync(bool http2, HttpRequestMessage request) => _calls.SendAsync(request, http2);
}
