using System.Net;
using System.Text;
using System.Text.Json;
using System.Xml.Linq;
using Google.Protobuf;
using ProtoHttp.FunctionalTests.Infrastructure;
using ProtoHttp.FunctionalTests.Protos;

namespace ProtoHttp.FunctionalTests;

/// <summary>
/// The request limit at its edge in every way a unary message arrives: a request exactly at the test service's 64 KiB
/// limit is served and echoed whole, one byte more is refused naming the limit (docs/protocol.md sections 7 and 12,
/// docs/connect.md). The bodies are written out by hand, byte for byte, so their sizes are known without ProtoHttp.
/// </summary>
public sealed class MessageSizeLimitTests(SampleServerFixture fixture) : IClassFixture<SampleServerFixture>
{
    private const int Limit = 64 * 1024; // SampleServer gives the test service this limit.
    private const string Echo = "/test_service.proto/Echo";
    private const string ConnectEcho = "/protohttp.tests.TestService/Echo";
    private const string BodyTooLarge = "The request body is larger than the limit of 65536 bytes.";

    // Tree.name is field 1, length-delimited: the tag 0x0A, the length as a varint (3 bytes for 16,384 to 2,097,151), the bytes.
    private const int ProtobufNameOverhead = 1 + 3;

    private readonly SampleServer _server = fixture.Server;

    public static TheoryData<string, int> Ways()
    {
        var data = new TheoryData<string, int>();
        foreach (var way in new[] { "json", "xml", "form", "connect+json", "connect+proto", "grpc-web", "grpc-web-text" })
        {
            data.Add(way, Limit);
            data.Add(way, Limit + 1);
        }

        return data;
    }

    [Theory]
    [MemberData(nameof(Ways))]
    public async Task AMessageAtTheLimitIsServedAndOneByteMoreIsRefusedNamingIt(string way, int size)
    {
        var (request, name) = Request(way, size);

        using var response = await _server.Client.SendAsync(request);

        if (size <= Limit)
        {
            Assert.Equal(name, await EchoedNameAsync(way, response));
        }
        else
        {
            await AssertRefusedAsync(way, response);
        }
    }

    /// <summary>The request for <paramref name="way"/> whose measured part (the body; for gRPC-Web the message) is <paramref name="size"/> bytes, and the name it carries.</summary>
    private static (HttpRequestMessage Request, string Name) Request(string way, int size)
    {
        switch (way)
        {
            case "json":
            case "connect+json":
            {
                var name = Padding(size - """{"name":""}""".Length);
                return (Post(way == "json" ? Echo : ConnectEcho, Encoding.UTF8.GetBytes($$"""{"name":"{{name}}"}"""), "application/json"), name);
            }

            case "xml":
            {
                var name = Padding(size - "<Tree><name></name></Tree>".Length);
                return (Post(Echo, Encoding.UTF8.GetBytes($"<Tree><name>{name}</name></Tree>"), "application/xml"), name);
            }

            case "form":
            {
                var name = Padding(size - "name=".Length);
                return (Post(Echo, Encoding.ASCII.GetBytes("name=" + name), "application/x-www-form-urlencoded"), name);
            }

            case "connect+proto":
            {
                var name = Padding(size - ProtobufNameOverhead);
                return (Post(ConnectEcho, ProtobufName(name), "application/proto"), name);
            }

            default:
            {
                // gRPC-Web's limit is the message's (docs/protocol.md section 12); the frame header and base64 come on top.
                var name = Padding(size - ProtobufNameOverhead);
                var frame = GrpcWebWire.Frame(ProtobufName(name));
                return way == "grpc-web-text"
                    ? (GrpcWebWire.Post(ConnectEcho, Encoding.ASCII.GetBytes(Convert.ToBase64String(frame)), "application/grpc-web-text"), name)
                    : (GrpcWebWire.Post(ConnectEcho, frame), name);
            }
        }
    }

    private static async Task<string> EchoedNameAsync(string way, HttpResponseMessage response)
    {
        Assert.Equal(HttpStatusCode.OK, response.StatusCode);
        switch (way)
        {
            case "xml":
                return XDocument.Parse(await response.Content.ReadAsStringAsync()).Root!.Element("name")!.Value;
            case "connect+proto":
                return Tree.Parser.ParseFrom(await response.Content.ReadAsByteArrayAsync()).Name;
            case "grpc-web" or "grpc-web-text":
                var (messages, trailers) = await ReadGrpcWebAsync(way, response);
                Assert.Equal("0", trailers["grpc-status"]);
                return Tree.Parser.ParseFrom(Assert.Single(messages)).Name;
            default: // JSON, and a form post's own answer, which is JSON.
                Assert.Equal("application/json", response.Content.Headers.ContentType?.MediaType);
                using (var json = JsonDocument.Parse(await response.Content.ReadAsStringAsync()))
                {
                    return json.RootElement.GetProperty("name").GetString()!;
                }
        }
    }

    private static async Task AssertRefusedAsync(string way, HttpResponseMessage response)
    {
        switch (way)
        {
            case "connect+json" or "connect+proto":
                // Connect's status follows from the code: resource_exhausted is 429 (docs/connect.md), its error JSON.
                Assert.Equal(HttpStatusCode.TooManyRequests, response.StatusCode);
                using (var error = JsonDocument.Parse(await response.Content.ReadAsStringAsync()))
                {
                    Assert.Equal("resource_exhausted", error.RootElement.GetProperty("code").GetString());
                    Assert.Equal(BodyTooLarge, error.RootElement.GetProperty("message").GetString());
                }

                break;
            case "grpc-web" or "grpc-web-text":
                var (messages, trailers) = await ReadGrpcWebAsync(way, response);
                Assert.Empty(messages);
                Assert.Equal("8", trailers["grpc-status"]);
                Assert.Equal("The request message is larger than the limit of 65536 bytes.", Uri.UnescapeDataString(trailers["grpc-message"]));
                break;
            case "xml":
                Assert.Equal(HttpStatusCode.RequestEntityTooLarge, response.StatusCode);
                Assert.Equal("application/xml", response.Content.Headers.ContentType?.MediaType);
                var xmlError = XDocument.Parse(await response.Content.ReadAsStringAsync()).Root!;
                Assert.Equal(("RESOURCE_EXHAUSTED", BodyTooLarge), (xmlError.Element("code")?.Value, xmlError.Element("error_text")?.Value));
                break;
            default: // JSON, and a form post, whose errors are JSON.
                await ErrorTests.AssertErrorAsync(response, HttpStatusCode.RequestEntityTooLarge, "RESOURCE_EXHAUSTED", BodyTooLarge);
                break;
        }
    }

    private static async Task<(List<byte[]> Messages, Dictionary<string, string> Trailers)> ReadGrpcWebAsync(string way, HttpResponseMessage response)
    {
        Assert.Equal(HttpStatusCode.OK, response.StatusCode);
        return GrpcWebWire.Read(way == "grpc-web-text"
            ? GrpcWebWire.DecodeText(await response.Content.ReadAsStringAsync())
            : await response.Content.ReadAsByteArrayAsync());
    }

    private static byte[] ProtobufName(string name)
    {
        var length = name.Length;
        Assert.InRange(length, 16_384, 2_097_151);
        return [0x0A, (byte)(length | 0x80), (byte)((length >> 7) | 0x80), (byte)(length >> 14), .. Encoding.ASCII.GetBytes(name)];
    }

    private static string Padding(int length) => string.Create(length, 0, (span, _) =>
    {
        for (var i = 0; i < span.Length; i++)
        {
            span[i] = (char)('a' + (i % 26)); // Not one repeated letter: a truncated or shifted echo shows.
        }
    });

    private static HttpRequestMessage Post(string path, byte[] body, string contentType)
    {
        var content = new ByteArrayContent(body);
        content.Headers.ContentType = new System.Net.Http.Headers.MediaTypeHeaderValue(contentType);
        var request = new HttpRequestMessage(HttpMethod.Post, path) { Content = content };
        if (path == ConnectEcho)
        {
            request.Headers.Add("Connect-Protocol-Version", "1");
        }

        return request;
    }
}
