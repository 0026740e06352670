using System.Net;
using System.Text;
using Google.Protobuf;
using Google.Protobuf.WellKnownTypes;
using Grpc.Core;
using Grpc.Net.Client;
using Grpc.Net.Client.Web;
using Microsoft.Extensions.Logging;
using ProtoHttp.FunctionalTests.Infrastructure;
using ProtoHttp.FunctionalTests.Protos;
using ProtoHttp.FunctionalTests.Protos.Streaming;

namespace ProtoHttp.FunctionalTests.GrpcWeb;

/// <summary>
/// gRPC-Web at <c>/{package.Service}/{Method}</c> (docs/protocol.md, gRPC-Web), called by grpc-dotnet's own gRPC-Web
/// client (<c>GrpcWebHandler</c>) in binary and text mode, and by hand for what a client hides: the trailers frame,
/// <c>grpc-timeout</c>, the limits, bad input.
/// </summary>
public sealed class GrpcWebTests(SampleServerFixture fixture) : IClassFixture<SampleServerFixture>, IDisposable
{
    private const string TestService = "protohttp.tests.TestService";

    private static readonly Method<ContextRequest, ContextReply> ContextMethod = Unary<ContextRequest, ContextReply>("Context", ContextReply.Parser);
    private static readonly Method<FailRequest, Protos.Empty> FailMethod = Unary<FailRequest, Protos.Empty>("Fail", Protos.Empty.Parser);
    private static readonly Method<CountRequest, Tick> CountMethod = new(
        MethodType.ServerStreaming, "protohttp.tests.streaming.StreamingService", "Count",
        Marshallers.Create<CountRequest>(m => m.ToByteArray(), CountRequest.Parser.ParseFrom), Marshallers.Create(m => m.ToByteArray(), Tick.Parser.ParseFrom));

    private readonly SampleServer _server = fixture.Server;
    private readonly HttpClient _http2 = fixture.Server.CreateHttp2Client();

    public void Dispose() => _http2.Dispose();

    [Theory]
    [InlineData(GrpcWebMode.GrpcWeb)]
    [InlineData(GrpcWebMode.GrpcWebText)]
    public async Task AGrpcWebClientCallsAUnaryMethodWithMetadataBothWays(GrpcWebMode mode)
    {
        using var channel = Channel(mode);
        var request = new ContextRequest { ResponseHeaders = { ["answer-header"] = "h" }, ResponseTrailers = { ["answer-trailer"] = "t" } };
        var headers = new Metadata { { "x-probe", "sent" }, { "probe-bin", new byte[] { 0, 255 } } };

        using var call = channel.CreateCallInvoker().AsyncUnaryCall(ContextMethod, null, new CallOptions(headers, DateTime.UtcNow.AddMinutes(5)), request);
        var reply = await call;

        Assert.Equal("/protohttp.tests.TestService/Context", reply.Method);
        Assert.Equal("sent", reply.RequestHeaders["x-probe"]);
        Assert.Equal(new byte[] { 0, 255 }, reply.BinaryRequestHeader.ToByteArray());
        Assert.True(reply.HasDeadline, "grpc-timeout set the call's deadline");
        Assert.Equal("/protohttp.tests.TestService/Context", reply.HttpPath);
        Assert.Equal("h", (await call.ResponseHeadersAsync).GetValue("answer-header"));
        Assert.Equal("t", call.GetTrailers().GetValue("answer-trailer"));
        Assert.Equal(StatusCode.OK, call.GetStatus().StatusCode);
    }

    [Theory]
    [InlineData(GrpcWebMode.GrpcWeb)]
    [InlineData(GrpcWebMode.GrpcWebText)]
    public async Task AServerStreamThatFailsAfterTwoMessagesEndsWithTheStatusItsDetailsAndTrailers(GrpcWebMode mode)
    {
        using var channel = Channel(mode);
        var details = ConnectWire.RpcStatus(5, "no such product", Any.Pack(new StringValue { Value = "product 99" }));
        var request = new CountRequest { Count = 5, FailCode = "NOT_FOUND", FailAfter = 2, StatusDetails = details, ResponseTrailers = { ["set-before"] = "yes" } };

        using var call = channel.CreateCallInvoker().AsyncServerStreamingCall(CountMethod, null, new CallOptions(), request);
        var ticks = new List<int>();
        var failure = await Assert.ThrowsAsync<RpcException>(async () =>
        {
            while (await call.ResponseStream.MoveNext(CancellationToken.None))
            {
                ticks.Add(call.ResponseStream.Current.Sequence);
            }
        });

        Assert.Equal([0, 1], ticks);
        Assert.Equal(StatusCode.NotFound, failure.StatusCode);
        Assert.Equal("failed after 2", failure.Status.Detail);
        Assert.Equal(details.ToByteArray(), failure.Trailers.GetValueBytes("grpc-status-details-bin"));
        Assert.Equal("yes", failure.Trailers.GetValue("set-before"));
    }

    [Fact]
    public async Task AServerStreamOverH2cEndsWithStatusZero()
    {
        using var response = await _http2.SendAsync(GrpcWebWire.Post("/protohttp.tests.streaming.StreamingService/Count", GrpcWebWire.Frame(new CountRequest { Count = 3 }), http2: true));

        Assert.Equal(HttpStatusCode.OK, response.StatusCode);
        Assert.Equal(new Version(2, 0), response.Version);
        var (messages, trailers) = GrpcWebWire.Read(await response.Content.ReadAsByteArrayAsync());
        Assert.Equal([0, 1, 2], messages.Select(m => Tick.Parser.ParseFrom(m).Sequence));
        Assert.Equal("0", trailers["grpc-status"]);
    }

    [Theory]
    [InlineData("application/grpc-web+json")]
    [InlineData("application/grpc-web-text+proto")]
    public async Task AUnaryCallInJsonOrTextIsAnsweredInTheRequestsTypeAndCodec(string contentType)
    {
        var tree = new Tree { Name = "Ünicode 100%", Shade = Shade.Dark, Data = ByteString.CopyFrom(1, 2, 3), Result = { new Leaf { Url = "u" } } };
        var json = contentType.EndsWith("+json", StringComparison.Ordinal);
        var frame = GrpcWebWire.Frame(json ? Encoding.UTF8.GetBytes(JsonFormatter.Default.Format(tree)) : tree.ToByteArray());
        var body = json ? frame : Encoding.ASCII.GetBytes(Convert.ToBase64String(frame));

        using var response = await _server.Client.SendAsync(GrpcWebWire.Post($"/{TestService}/Echo", body, contentType));

        Assert.Equal(HttpStatusCode.OK, response.StatusCode);
        Assert.Equal(contentType, response.Content.Headers.ContentType?.MediaType);
        var (messages, trailers) = GrpcWebWire.Read(json ? await response.Content.ReadAsByteArrayAsync() : GrpcWebWire.DecodeText(await response.Content.ReadAsStringAsync()));
        var answer = Assert.Single(messages);
        Assert.Equal(tree, json ? Tree.Parser.ParseJson(Encoding.UTF8.GetString(answer)) : Tree.Parser.ParseFrom(answer));
        Assert.Equal("0", trailers["grpc-status"]);
        Assert.False(trailers.ContainsKey("grpc-message"), "a success carries no grpc-message");
    }

    [Fact]
    public async Task AnRpcExceptionsRichStatusIsGrpcStatusDetailsBinAndItsTextPercentEncodedInTheTrailersFrame()
    {
        var details = ConnectWire.RpcStatus(3, "bad sku", Any.Pack(new StringValue { Value = "sku 7" }));
        var request = new FailRequest { Code = "INVALID_ARGUMENT", Detail = "bad sku: 100% Ünicode", StatusDetails = details };

        using var response = await _server.Client.SendAsync(GrpcWebWire.Post($"/{TestService}/Fail", GrpcWebWire.Frame(request)));

        Assert.Equal(HttpStatusCode.OK, response.StatusCode);
        var (messages, trailers) = GrpcWebWire.Read(await response.Content.ReadAsByteArrayAsync());
        Assert.Empty(messages);
        Assert.Equal("3", trailers["grpc-status"]);
        Assert.Equal("bad sku: 100%25 %C3%9Cnicode", trailers["grpc-message"]);
        Assert.Equal(details.ToByteArray(), Convert.FromBase64String(trailers["grpc-status-details-bin"]));
        // The service's failure-reason trailer holds the same text, which a header line cannot: left out, not mangled.
        Assert.False(trailers.ContainsKey("failure-reason"));
    }

    [Theory]
    [InlineData("application/grpc-web+proto")]
    [InlineData("application/grpc-web-text")]
    public async Task AGrpcTimeoutThatPassesInAStreamUnderWayEndsItWithStatusFourAfterItsMessages(string contentType)
    {
        _server.StreamProbe.Reset();
        var frame = GrpcWebWire.Frame(new CountRequest { Count = 2, WaitForCancellation = true });
        var text = contentType.Contains("-text", StringComparison.Ordinal);
        var body = text ? Encoding.ASCII.GetBytes(Convert.ToBase64String(frame)) : frame;

        // 2 s: room for two ticks on a loaded machine before the deadline, which only then has anything to end.
        using var response = await _server.Client.SendAsync(GrpcWebWire.Post("/protohttp.tests.streaming.StreamingService/Count", body, contentType, timeout: "2S"));

        Assert.Equal(HttpStatusCode.OK, response.StatusCode);
        var (messages, trailers) = GrpcWebWire.Read(text ? GrpcWebWire.DecodeText(await response.Content.ReadAsStringAsync()) : await response.Content.ReadAsByteArrayAsync());
        Assert.Equal([0, 1], messages.Select(m => Tick.Parser.ParseFrom(m).Sequence));
        Assert.Equal("4", trailers["grpc-status"]);
        Assert.Equal("The deadline of 2000 ms passed before the call completed.", trailers["grpc-message"]);
        await _server.StreamProbe.Cancelled.WaitAsync(TimeSpan.FromSeconds(30));
    }

    [Fact]
    public async Task AClientThatLeavesAGrpcWebStreamFiresTheServiceToken()
    {
        var errorsBefore = await _server.Logs.ErrorCountOnceEndedAsync();
        _server.StreamProbe.Reset();
        var request = GrpcWebWire.Post("/protohttp.tests.streaming.StreamingService/Count", GrpcWebWire.Frame(new CountRequest { Count = 1, WaitForCancellation = true }));
        using (var response = await _server.Client.SendAsync(request, HttpCompletionOption.ResponseHeadersRead))
        {
            await using var stream = await response.Content.ReadAsStreamAsync();
            var header = new byte[5];
            await stream.ReadExactlyAsync(header);
            Assert.Equal(0, header[0]); // The first message frame arrived: the service is waiting now.
        }

        await _server.StreamProbe.Cancelled.WaitAsync(TimeSpan.FromSeconds(30));
        Assert.Empty((await _server.Logs.ErrorsOnceEndedAsync()).Skip(errorsBefore));
    }

    [Theory]
    [InlineData("application/grpc-web+proto")]
    [InlineData("application/grpc-web+json")]
    public async Task AMessageNestedDeeperThanTheLimitIsInvalidArgument(string contentType)
    {
        var tree = new Tree { Name = "leaf" };
        for (var i = 0; i < 150; i++)
        {
            tree = new Tree { Child = tree };
        }

        // Google.Protobuf's JSON formatter would refuse to write so deep: the JSON is written by hand.
        var payload = contentType.EndsWith("+json", StringComparison.Ordinal)
            ? Encoding.UTF8.GetBytes(string.Concat(Enumerable.Repeat("{\"child\":", 150)) + "{\"name\":\"leaf\"}" + new string('}', 150))
            : tree.ToByteArray();

        using var response = await _server.Client.SendAsync(GrpcWebWire.Post($"/{TestService}/Echo", GrpcWebWire.Frame(payload), contentType));

        var (messages, trailers) = GrpcWebWire.Read(await response.Content.ReadAsByteArrayAsync());
        Assert.Empty(messages);
        Assert.Equal("3", trailers["grpc-status"]);
        Assert.NotEmpty(trailers["grpc-message"]);
    }

    [Theory]
    [InlineData("application/grpc-web")]
    [InlineData("application/grpc-web-text")]
    public async Task AClientStreamingMethodRefusesGrpcWebWith415BesideGrpcDotnetsCatchAll(string contentType)
    {
        // The sample maps services with grpc-dotnet too, whose catch-all answers unknown services' gRPC calls; gRPC-Web
        // at a method it cannot call is still refused by ProtoHttp's Connect endpoint there (docs/grpc-web.md).
        using var response = await _server.Client.SendAsync(
            GrpcWebWire.Post("/protohttp.tests.streaming.StreamingService/Sum", GrpcWebWire.Frame(new Tick()), contentType));

        Assert.Equal(HttpStatusCode.UnsupportedMediaType, response.StatusCode);
        Assert.Contains($"'{contentType}' is not a Connect streaming codec", await response.Content.ReadAsStringAsync());
    }

    [Fact]
    public async Task AServiceExceptionIsUnknownWithTheFixedSentenceNeverItsText()
    {
        using var channel = Channel(GrpcWebMode.GrpcWeb);

        var failure = await Assert.ThrowsAsync<RpcException>(async () =>
            await channel.CreateCallInvoker().AsyncUnaryCall(FailMethod, null, new CallOptions(), new FailRequest { Detail = "password=hunter2" }));

        Assert.Equal(StatusCode.Unknown, failure.StatusCode);
        Assert.Equal("The service failed to handle the call.", failure.Status.Detail);
        Assert.DoesNotContain("hunter2", failure.ToString());
    }

    [Fact]
    public async Task GrpcTimeoutIsTheDeadlineTheCallEndsWithStatusFourWhenItPasses()
    {
        var started = DateTime.UtcNow;

        using var response = await _server.Client.SendAsync(
            GrpcWebWire.Post($"/{TestService}/Slow", GrpcWebWire.Frame(new SlowRequest { DelayMs = 60_000 }), timeout: "300m"));

        var (messages, trailers) = GrpcWebWire.Read(await response.Content.ReadAsByteArrayAsync());
        Assert.Equal(HttpStatusCode.OK, response.StatusCode);
        Assert.Empty(messages);
        Assert.Equal("4", trailers["grpc-status"]);
        Assert.Equal("The deadline of 300 ms passed before the call completed.", trailers["grpc-message"]);
        Assert.True(DateTime.UtcNow - started < TimeSpan.FromSeconds(30), "the deadline, not the service's minute, ended the call");
    }

    [Fact]
    public async Task AMessageOverTheLimitIsResourceExhaustedNamingTheLimit()
    {
        var tree = new Tree { Name = "big", Data = ByteString.CopyFrom(new byte[70 * 1024]) };

        using var response = await _server.Client.SendAsync(GrpcWebWire.Post($"/{TestService}/Echo", GrpcWebWire.Frame(tree)));

        var (messages, trailers) = GrpcWebWire.Read(await response.Content.ReadAsByteArrayAsync());
        Assert.Empty(messages);
        Assert.Equal("8", trailers["grpc-status"]);
        Assert.Equal("The request message is larger than the limit of 65536 bytes.", trailers["grpc-message"]);
    }

    [Fact]
    public async Task TheTextModeReadsChunkedBase64AndAnswersBase64OverH2c()
    {
        var tree = new Tree { Name = "text mode", Child = new Tree { Name = "child" } };
        var frame = GrpcWebWire.Frame(tree);
        var body = Encoding.ASCII.GetBytes(Convert.ToBase64String(frame, 0, 7) + Convert.ToBase64String(frame, 7, frame.Length - 7));

        using var response = await _http2.SendAsync(GrpcWebWire.Post($"/{TestService}/Echo", body, "application/grpc-web-text", http2: true));

        Assert.Equal("application/grpc-web-text", response.Content.Headers.ContentType?.MediaType);
        var (messages, trailers) = GrpcWebWire.Read(GrpcWebWire.DecodeText(await response.Content.ReadAsStringAsync()));
        Assert.Equal(tree, Tree.Parser.ParseFrom(Assert.Single(messages)));
        Assert.Equal("0", trailers["grpc-status"]);
    }

    [Theory]
    [InlineData("application/grpc-web", "", null, "12", "holds no message frame")]
    [InlineData("application/grpc-web", "AAAA", null, "3", "needs a 5-byte header")]
    [InlineData("application/grpc-web", "AAAAAAL/", null, "3", "The request frame says it holds 2 bytes")]
    [InlineData("application/grpc-web", "AQAAAAA=", null, "12", "compressed")]
    [InlineData("application/grpc-web", "AAAAAAA=", "1.5S", "3", "1 to 8 digits and a unit")]
    [InlineData("application/grpc-web", "AAAAAAA=", "123456789S", "3", "1 to 8 digits and a unit")]
    [InlineData("application/grpc-web-text", "****", null, "3", "is not base64")]
    [InlineData("application/grpc-web+json", "AAAAAAF7", null, "3", "The JSON body is not valid JSON")]
    public async Task BadInputEndsWithItsStatusAndASentenceSayingWhatWasWrong(string contentType, string sent, string? timeout, string status, string sentence)
    {
        var errorsBefore = await _server.Logs.ErrorCountOnceEndedAsync();
        // The binary types' bodies are given in base64; the text type's is sent as it is.
        var text = contentType.Contains("-text");
        var body = text ? Encoding.ASCII.GetBytes(sent) : Convert.FromBase64String(sent);

        using var response = await _server.Client.SendAsync(GrpcWebWire.Post($"/{TestService}/Echo", body, contentType, timeout));

        Assert.Equal(HttpStatusCode.OK, response.StatusCode);
        var (messages, trailers) = GrpcWebWire.Read(
            text ? GrpcWebWire.DecodeText(await response.Content.ReadAsStringAsync()) : await response.Content.ReadAsByteArrayAsync());
        Assert.Empty(messages);
        Assert.Equal(status, trailers["grpc-status"]);
        Assert.Contains(sentence, Uri.UnescapeDataString(trailers["grpc-message"]));
        Assert.Empty((await _server.Logs.ErrorsOnceEndedAsync()).Skip(errorsBefore));
    }

    [Fact]
    public async Task AnotherVerbIs405AndAnotherCodec415SayingWhatWouldWork()
    {
        using var get = await _server.Client.SendAsync(new HttpRequestMessage(HttpMethod.Put, $"/{TestService}/Echo")
        {
            Content = new ByteArrayContent([]) { Headers = { { "Content-Type", "application/grpc-web" } } },
        });
        using var xml = await _server.Client.SendAsync(GrpcWebWire.Post($"/{TestService}/Echo", [], "application/grpc-web+xml"));

        Assert.Equal(HttpStatusCode.MethodNotAllowed, get.StatusCode);
        Assert.Equal("POST", get.Content.Headers.Allow.Single());
        Assert.Equal("12", get.Headers.GetValues("grpc-status").Single());
        Assert.Equal(HttpStatusCode.UnsupportedMediaType, xml.StatusCode);
        Assert.Contains("application/grpc-web+json", xml.Headers.GetValues("Accept-Post").Single());
        Assert.Contains("'application/grpc-web+xml' is not a gRPC-Web type", Uri.UnescapeDataString(xml.Headers.GetValues("grpc-message").Single()));
    }

    [Fact]
    public async Task AMethodNameInAnotherCaseIsUnimplemented()
    {
        using var response = await _server.Client.SendAsync(GrpcWebWire.Post($"/{TestService}/echo", GrpcWebWire.Frame(new Tree())));

        var (_, trailers) = GrpcWebWire.Read(await response.Content.ReadAsByteArrayAsync());
        Assert.Equal("12", trailers["grpc-status"]);
        Assert.Contains("case-sensitive", trailers["grpc-message"]);
    }

    private GrpcChannel Channel(GrpcWebMode mode) => GrpcChannel.ForAddress(_server.Http1Address, new GrpcChannelOptions
    {
        HttpHandler = new GrpcWebHandler(mode, new SocketsHttpHandler()),
        HttpVersion = HttpVersion.Version11,
        HttpVersionPolicy = HttpVersionPolicy.RequestVersionExact,
    });

    private static Method<TRequest, TResponse> Unary<TRequest, TResponse>(string name, MessageParser<TResponse> parser)
        where TRequest : class, IMessage<TRequest>
        where TResponse : class, IMessage<TResponse> =>
        new(MethodType.Unary, TestService, name, Marshallers.Create<TRequest>(m => m.ToByteArray(), _ => throw new NotSupportedException()),
            Marshallers.Create(m => m.ToByteArray(), parser.ParseFrom));
}
