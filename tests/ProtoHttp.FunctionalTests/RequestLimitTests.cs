using System.Net;
using System.Net.Http.Headers;
using System.Net.Sockets;
using System.Text;
using Google.Protobuf;
using ProtoHttp.FunctionalTests.Infrastructure;
using ProtoHttp.FunctionalTests.Protos;

namespace ProtoHttp.FunctionalTests;

public sealed class RequestLimitTests(SampleServerFixture fixture) : IClassFixture<SampleServerFixture>
{
    private const int FourMiB = 4 * 1024 * 1024;

    private readonly SampleServer _server = fixture.Server;

    [Theory]
    [InlineData(true)]
    [InlineData(false)]
    public async Task ABodyOverFourMiBIs413NamingTheLimit(bool withContentLength)
    {
        var body = OrderBodies.OfSize(FourMiB + 1024).ToByteArray();
        Assert.True(body.Length > FourMiB);

        using var response = await _server.Client.PostAsync("/Northwind.proto/Roundtrip", Content(body, withContentLength));

        await ErrorTests.AssertErrorAsync(response, HttpStatusCode.RequestEntityTooLarge, "RESOURCE_EXHAUSTED",
            $"The request body is larger than the limit of {FourMiB} bytes.", "application/x-protobuf");
    }

    [Theory]
    [InlineData(true)]
    [InlineData(false)]
    public async Task ABodyJustUnderFourMiBIsServed(bool withContentLength)
    {
        var orders = OrderBodies.OfSize(FourMiB - 64 * 1024);
        var body = orders.ToByteArray();
        Assert.True(body.Length is > FourMiB - 128 * 1024 and <= FourMiB);

        using var response = await _server.Client.PostAsync("/Northwind.proto/Roundtrip", Content(body, withContentLength));

        Assert.Equal(HttpStatusCode.OK, response.StatusCode);
        Assert.Equal(body, await response.Content.ReadAsByteArrayAsync());
    }

    [Fact]
    public async Task ADeclaredLengthOverTheLimitIsRefusedBeforeTheBodyIsSent()
    {
        // Only the headers go out: a server that waited for the body would never answer.
        using var tcp = new TcpClient();
        await tcp.ConnectAsync(_server.Http1Address.Host, _server.Http1Address.Port);
        var stream = tcp.GetStream();
        var head = "POST /Northwind.proto/Roundtrip HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/x-protobuf\r\n" +
            "Content-Length: 1099511627776\r\n\r\n";
        await stream.WriteAsync(Encoding.ASCII.GetBytes(head));

        using var reader = new StreamReader(stream, Encoding.ASCII);
        var statusLine = await reader.ReadLineAsync().WaitAsync(TimeSpan.FromSeconds(10));

        Assert.Equal("HTTP/1.1 413 Payload Too Large", statusLine);
    }

    [Fact]
    public async Task EachServiceCanSetItsOwnLimit()
    {
        // The test service is configured with a 64 KiB limit; the sample's services keep 4 MiB.
        var message = new ContextRequest();
        message.ResponseHeaders.Add("x-padding", new string('p', 70 * 1024));

        using var response = await _server.Client.SendAsync(Wire.Post("/test_service.proto/Context", message, "application/x-protobuf"));

        await ErrorTests.AssertErrorAsync(response, HttpStatusCode.RequestEntityTooLarge, "RESOURCE_EXHAUSTED",
            "The request body is larger than the limit of 65536 bytes.", "application/x-protobuf");
    }

    private static HttpContent Content(byte[] body, bool withContentLength)
    {
        HttpContent content = withContentLength ? new ByteArrayContent(body) : new ChunkedContent(body);
        content.Headers.ContentType = new MediaTypeHeaderValue("application/x-protobuf");
        return content;
    }

    /// <summary>Bytes sent with no declared length, so HttpClient sends them with <c>Transfer-Encoding: chunked</c>.</summary>
    private sealed class ChunkedContent(byte[] body) : HttpContent
    {
        protected override Task SerializeToStreamAsync(Stream stream, TransportContext? context) => stream.WriteAsync(body).AsTask();

        protected override bool TryComputeLength(out long length)
        {
            length = 0;
            return false;
        }
    }
}
