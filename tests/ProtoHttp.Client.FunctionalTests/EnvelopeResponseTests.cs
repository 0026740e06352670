using System.IO.Compression;
using System.Net;
using System.Text;
using Google.Protobuf;
using Grpc.Core;
using ProtoHttp.Client.FunctionalTests.Infrastructure;
using ProtoHttp.Client.FunctionalTests.Protos;

namespace ProtoHttp.Client.FunctionalTests;

/// <summary>
/// Response streams no server here sends, from a stub handler: gzipped envelopes and end-stream messages as real Connect
/// servers send them, a gzip bomb, and streams that are malformed, cut short or not envelopes at all. Each ends the
/// call with a status that says what was wrong, never a hang or an exception of another type.
/// </summary>
public sealed class EnvelopeResponseTests
{
    private const byte Compressed = 0x01;
    private const byte EndStream = 0x02;

    [Fact]
    public async Task TheRequestIsOneEnvelopeWithConnectsHeaders()
    {
        var handler = new StubHandler(_ => Stream(Frames.Of(0, []), Frames.Of(EndStream, "{}"u8.ToArray())));

        var values = await ReadAllAsync(handler, ProtocolNames.Connect, deadline: DateTime.UtcNow.AddMinutes(1));

        var request = handler.LastRequest!;
        Assert.Equal([0], values);
        Assert.Equal("http://stub/protohttp.clienttests.ClientTestService/Count", request.RequestUri!.ToString());
        Assert.Equal("application/connect+proto", request.Content!.Headers.ContentType!.MediaType);
        Assert.Equal("1", request.Headers.GetValues("Connect-Protocol-Version").Single());
        Assert.Equal("gzip", request.Headers.GetValues("Connect-Accept-Encoding").Single());
        Assert.InRange(long.Parse(request.Headers.GetValues("Connect-Timeout-Ms").Single(), System.Globalization.CultureInfo.InvariantCulture), 50_000, 60_000);
        Assert.Equal(Frames.Of(0, new CountRequest { Count = 2 }.ToByteArray()), handler.LastBody);
    }

    [Fact]
    public async Task OnProtoHttpsPathTheStreamIsAskedForInAccept()
    {
        var handler = new StubHandler(_ => Stream(Frames.Of(EndStream, "{}"u8.ToArray())));

        await ReadAllAsync(handler, ProtocolNames.ProtoHttp);

        var request = handler.LastRequest!;
        Assert.Equal("http://stub/client_test_service.proto/Count", request.RequestUri!.ToString());
        Assert.Equal("application/connect+proto", request.Headers.Accept.Single().MediaType);
        Assert.False(request.Headers.Contains("Connect-Accept-Encoding"));
    }

    [Fact]
    public async Task GzippedEnvelopesAndEndStreamAreRead()
    {
        var end = """{"error":{"code":"unavailable","message":"going away"},"metadata":{"x-reason":["drain"],"x-blob-bin":["AQL/"]}}"""u8.ToArray();
        var handler = new StubHandler(_ => Stream(
            gzip: true,
            Frames.Of(Compressed, Gzip(new Number { Value = 1 }.ToByteArray())),
            Frames.Of(0, new Number { Value = 2 }.ToByteArray()),
            Frames.Of(EndStream | Compressed, Gzip(end))));

        var values = new List<int>();
        var ex = await Assert.ThrowsAsync<RpcException>(() => ReadAllAsync(handler, ProtocolNames.Connect, values));

        Assert.Equal([1, 2], values);
        Assert.Equal(StatusCode.Unavailable, ex.StatusCode);
        Assert.Equal("going away", ex.Status.Detail);
        Assert.Equal("drain", ex.Trailers.GetValue("x-reason"));
        Assert.Equal(new byte[] { 1, 2, 255 }, ex.Trailers.GetValueBytes("x-blob-bin"));
    }

    [Fact]
    public async Task AGzipBombIsResourceExhaustedNotMemory()
    {
        var bomb = Gzip(new Number { Padding = ByteString.CopyFrom(new byte[50_000_000]) }.ToByteArray());
        var handler = new StubHandler(_ => Stream(gzip: true, Frames.Of(Compressed, bomb)));

        var ex = await Assert.ThrowsAsync<RpcException>(() => ReadAllAsync(handler, ProtocolNames.Connect));

        Assert.True(bomb.Length < 1_000_000); // Well under the limit as sent: only inflating it goes past.
        Assert.Equal(StatusCode.ResourceExhausted, ex.StatusCode);
        Assert.Equal($"A gzipped response message inflates past ProtoHttpClientOptions.MaxResponseSize ({ProtoHttpClientOptions.DefaultMaxResponseSize} bytes).", ex.Status.Detail);
    }

    public static TheoryData<string, byte[], string> MalformedStreams => new()
    {
        { "no end-stream message", Frames.Of(0, []), "The response stream ended without its end-stream message, so the call's outcome is unknown." },
        { "cut inside an envelope", Frames.Of(0, new Number { Value = 300 }.ToByteArray())[..^1], "The response stream ends inside an envelope: 7 bytes arrived of the envelope that starts there." },
        { "unknown flags", Frames.Of(0x80, []), "A response envelope has the unknown flags 0x80." },
        { "compressed without an encoding", Frames.Of(Compressed, []), "A response envelope is flagged compressed (0x01), but the response names no Connect-Content-Encoding this client reads." },
        { "not a message", Frames.Of(0, [0xff, 0xff]), "A response message could not be read:" },
        { "end-stream not JSON", Frames.Of(EndStream, "nope"u8.ToArray()), "The stream's end-stream message could not be read:" },
        { "end-stream error without a code", Frames.Of(EndStream, """{"error":{"message":"?"}}"""u8.ToArray()), "The stream's end-stream message could not be read: its error has no Connect code." },
    };

    [Theory]
    [MemberData(nameof(MalformedStreams))]
    public async Task AMalformedStreamIsInternal(string name, byte[] body, string detail)
    {
        var handler = new StubHandler(_ => Stream(body));

        var ex = await Assert.ThrowsAsync<RpcException>(() => ReadAllAsync(handler, ProtocolNames.Connect));

        Assert.True(ex.StatusCode == StatusCode.Internal, name);
        Assert.StartsWith(detail, ex.Status.Detail);
    }

    [Fact]
    public async Task AnUnknownCompressionIsInternal()
    {
        var handler = new StubHandler(_ =>
        {
            var response = Stream(Frames.Of(EndStream, "{}"u8.ToArray()));
            response.Headers.Add("Connect-Content-Encoding", "br");
            return response;
        });

        var ex = await Assert.ThrowsAsync<RpcException>(() => ReadAllAsync(handler, ProtocolNames.Connect));

        Assert.Equal(StatusCode.Internal, ex.StatusCode);
        Assert.Equal("The response to /protohttp.clienttests.ClientTestService/Count is compressed with 'br' (Connect-Content-Encoding); this client reads gzip and identity.", ex.Status.Detail);
    }

    [Fact]
    public async Task OnProtoHttpsPathAGzippedEnvelopeIsInternalAsNoCompressionIsAgreedThere()
    {
        var handler = new StubHandler(_ => Stream(gzip: true, Frames.Of(Compressed, Gzip(new Number { Value = 1 }.ToByteArray())), Frames.Of(EndStream, "{}"u8.ToArray())));

        var ex = await Assert.ThrowsAsync<RpcException>(() => ReadAllAsync(handler, ProtocolNames.ProtoHttp));

        Assert.Equal(StatusCode.Internal, ex.StatusCode);
        Assert.Equal("A response envelope is flagged compressed (0x01), but no compression is agreed on ProtoHttp's own paths (docs/protocol.md section 10).", ex.Status.Detail);
    }

    [Fact]
    public async Task AnAnswerThatIsNoStreamSaysWhatCameBack()
    {
        var handler = new StubHandler(_ => new HttpResponseMessage(HttpStatusCode.OK) { Content = new StringContent("<html>", Encoding.UTF8, "text/html") });

        var ex = await Assert.ThrowsAsync<RpcException>(() => ReadAllAsync(handler, ProtocolNames.ProtoHttp));

        Assert.Equal(StatusCode.Internal, ex.StatusCode);
        Assert.Equal(
            "The response to /protohttp.clienttests.ClientTestService/Count is not a stream of application/connect+proto envelopes: the server answered 200 with Content-Type 'text/html; charset=utf-8'.",
            ex.Status.Detail);
    }

    [Fact]
    public async Task AClientStreamAnsweredWithTwoMessagesIsInternal()
    {
        var handler = new StubHandler(_ => Stream(Frames.Of(0, []), Frames.Of(0, []), Frames.Of(EndStream, "{}"u8.ToArray())));
        var client = Client(handler, ProtocolNames.Connect);

        using var call = client.Sum();
        await call.RequestStream.CompleteAsync();
        var ex = await Assert.ThrowsAsync<RpcException>(() => call.ResponseAsync);

        Assert.Equal(StatusCode.Internal, ex.StatusCode);
        Assert.Equal("The server answered /protohttp.clienttests.ClientTestService/Sum, a client-streaming method, with more than one message.", ex.Status.Detail);
    }

    private static async Task<List<int>> ReadAllAsync(StubHandler handler, string protocol, List<int>? values = null, DateTime? deadline = null)
    {
        values ??= [];
        using var call = Client(handler, protocol).Count(new CountRequest { Count = 2 }, deadline: deadline);
        await foreach (var number in call.ResponseStream.ReadAllAsync())
        {
            values.Add(number.Value);
        }

        return values;
    }

    private static ClientTestService.ClientTestServiceClient Client(StubHandler handler, string protocol) =>
        new(new ProtoHttpCallInvoker(new HttpClient(handler), new ProtoHttpClientOptions { Address = new Uri("http://stub"), Protocol = protocol }));

    private static HttpResponseMessage Stream(params byte[][] envelopes) => Stream(gzip: false, envelopes);

    private static HttpResponseMessage Stream(bool gzip, params byte[][] envelopes)
    {
        var response = new HttpResponseMessage(HttpStatusCode.OK) { Content = new ByteArrayContent(envelopes.SelectMany(e => e).ToArray()) };
        response.Content.Headers.ContentType = new("application/connect+proto");
        if (gzip)
        {
            response.Headers.Add("Connect-Content-Encoding", "gzip");
        }

        return response;
    }

    private static byte[] Gzip(byte[] data)
    {
        using var output = new MemoryStream();
        using (var gzip = new GZipStream(output, CompressionLevel.SmallestSize))
        {
            gzip.Write(data);
        }

        return output.ToArray();
    }
}
