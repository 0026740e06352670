using System.Net;
using System.Net.Http.Headers;
using ProtoHttp.FunctionalTests.Infrastructure;
using ProtoHttp.FunctionalTests.Protos.Streaming;

namespace ProtoHttp.FunctionalTests;

/// <summary>Bidirectional calls: over h2c requests and responses flow at once; over HTTP/1.1 the answer is 505 (docs/protocol.md section 10).</summary>
public sealed class DuplexStreamingTests(SampleServerFixture fixture) : IClassFixture<SampleServerFixture>, IDisposable
{
    private const string Echo = "/streaming_service.proto/Echo";

    private readonly SampleServer _server = fixture.Server;
    private readonly HttpClient _http2 = fixture.Server.CreateHttp2Client();

    public static TheoryData<string, string> EveryRequestAndResponseFormat()
    {
        var data = new TheoryData<string, string>();
        foreach (var request in new[] { StreamWire.ConnectProto, StreamWire.ConnectJson })
        {
            foreach (var response in StreamWire.Formats)
            {
                data.Add(request, response);
            }
        }

        return data;
    }

    public void Dispose() => _http2.Dispose();

    [Theory]
    [MemberData(nameof(EveryRequestAndResponseFormat))]
    public async Task EachMessageIsAnsweredBeforeTheNextIsSent(string requestType, string responseType)
    {
        var upload = new EnvelopeUpload(requestType).WithType();
        await upload.WriteAsync(new Tick { Sequence = 0 });
        using var response = await SendAsync(upload, responseType);

        Assert.Equal(HttpStatusCode.OK, response.StatusCode);
        Assert.Equal(responseType, response.Content.Headers.ContentType?.MediaType);
        await using var records = StreamWire.ReadAsync<Tick>(response).GetAsyncEnumerator();
        for (var i = 0; i < 3; i++)
        {
            // The echo of each tick arrives while the request is still open: both directions flow at once.
            Assert.True(await records.MoveNextAsync());
            Assert.Equal(i, records.Current.Message?.Sequence);
            await upload.WriteAsync(new Tick { Sequence = i + 1 });
        }

        upload.Complete();
        Assert.True(await records.MoveNextAsync());
        Assert.Equal(3, records.Current.Message?.Sequence);
        if (responseType != StreamWire.Lines)
        {
            Assert.True(await records.MoveNextAsync());
            Assert.Equal("OK", records.Current.End?.Code);
        }

        Assert.False(await records.MoveNextAsync());
    }

    [Theory]
    [MemberData(nameof(EveryRequestAndResponseFormat))]
    public async Task AWholeBodyOfEnvelopesIsEchoedInOrder(string requestType, string responseType)
    {
        var content = new ByteArrayContent(ClientStreamingTests.Envelopes(requestType, Enumerable.Range(0, 4).Select(i => new Tick { Sequence = i })));
        content.Headers.ContentType = MediaTypeHeaderValue.Parse(requestType);

        using var response = await SendAsync(content, responseType);

        var (messages, end) = await StreamWire.ReadAllAsync<Tick>(response);
        Assert.Equal([0, 1, 2, 3], messages.Select(m => m.Sequence));
        Assert.Equal("OK", end.Code);
    }

    [Fact]
    public async Task AnEmptyRequestStreamIsAnEmptyResponseStream()
    {
        using var response = await SendAsync(Body([]), StreamWire.ConnectJson);

        var (messages, end) = await StreamWire.ReadAllAsync<Tick>(response);
        Assert.Empty(messages);
        Assert.Equal("OK", end.Code);
    }

    [Theory]
    [InlineData(StreamWire.Events)]
    [InlineData(StreamWire.ConnectProto)]
    public async Task OverHttp11TheAnswerIs505(string accept)
    {
        var request = new HttpRequestMessage(HttpMethod.Post, Echo) { Content = Body([]) };
        request.Headers.TryAddWithoutValidation("Accept", accept);

        using var response = await _server.Client.SendAsync(request);

        await ErrorTests.AssertErrorAsync(response, HttpStatusCode.HttpVersionNotSupported, "UNIMPLEMENTED",
            "Method 'Echo' is bidirectional and needs HTTP/2, where requests and responses flow at once; this request came over HTTP/1.1.");
    }

    [Theory]
    [InlineData(StreamWire.Events)]
    [InlineData(StreamWire.Lines)]
    [InlineData(StreamWire.ConnectProto)]
    [InlineData(StreamWire.ConnectJson)]
    public async Task AFailureAfterTheFirstMessageIsTheLastRecord(string responseType)
    {
        var body = ClientStreamingTests.Envelopes(StreamWire.ConnectProto, [new Tick { Sequence = 0 }, new Tick { Sequence = 1, Text = "fail:FAILED_PRECONDITION" }]);

        using var response = await SendAsync(Body(body), responseType);

        var (messages, end) = await StreamWire.ReadAllAsync<Tick>(response);
        Assert.Single(messages);
        Assert.Equal("FAILED_PRECONDITION", end.Code);
        Assert.Equal("failed at 1", end.ErrorText);
        Assert.Equal(["failed at 1"], end.Metadata["failure-reason"]);
    }

    [Theory]
    [InlineData(StreamWire.Events)]
    [InlineData(StreamWire.Lines)]
    [InlineData(StreamWire.ConnectProto)]
    [InlineData(StreamWire.ConnectJson)]
    public async Task AMalformedEnvelopeMidStreamEndsTheStreamAsTheClientsFault(string responseType)
    {
        var errorsBefore = await _server.Logs.ErrorCountOnceEndedAsync();
        byte[] body = [.. StreamWire.Envelope(new Tick { Sequence = 0 }, StreamWire.ConnectProto), .. StreamWire.Envelope([8, 1], flags: 0x05)];

        using var response = await SendAsync(Body(body), responseType);

        var (messages, end) = await StreamWire.ReadAllAsync<Tick>(response);
        Assert.Single(messages);
        Assert.Equal("INVALID_ARGUMENT", end.Code);
        Assert.Equal("A request envelope has the flags 0x05; a request message's envelope has the flags 0x00.", end.ErrorText);
        Assert.Empty((await _server.Logs.ErrorsOnceEndedAsync()).Skip(errorsBefore));
    }

    [Fact]
    public async Task AClientThatLeavesMidStreamFiresTheServiceToken()
    {
        var errorsBefore = await _server.Logs.ErrorCountOnceEndedAsync();
        _server.StreamProbe.Reset();
        var upload = new EnvelopeUpload(StreamWire.ConnectProto).WithType();
        await upload.WriteAsync(new Tick { Sequence = 0, Text = "hold" });
        using var leave = new CancellationTokenSource();
        using (var response = await SendAsync(upload, StreamWire.ConnectProto, leave.Token))
        {
            await using var records = StreamWire.ReadAsync<Tick>(response).GetAsyncEnumerator();
            Assert.True(await records.MoveNextAsync());

            // The request is still open, so the client resets the stream rather than just stop reading.
            await leave.CancelAsync();
        }

        await _server.StreamProbe.Cancelled.WaitAsync(TimeSpan.FromSeconds(30));
        Assert.Empty((await _server.Logs.ErrorsOnceEndedAsync()).Skip(errorsBefore));
    }

    private Task<HttpResponseMessage> SendAsync(HttpContent content, string accept, CancellationToken cancellationToken = default)
    {
        var request = new HttpRequestMessage(HttpMethod.Post, Echo) { Content = content };
        request.Headers.TryAddWithoutValidation("Accept", accept);
        return new StreamingClient(_http2, http2: true).SendAsync(request, HttpCompletionOption.ResponseHeadersRead, cancellationToken);
    }

    private static ByteArrayContent Body(byte[] body)
    {
        var content = new ByteArrayContent(body);
        content.Headers.ContentType = MediaTypeHeaderValue.Parse(StreamWire.ConnectProto);
        return content;
    }
}
