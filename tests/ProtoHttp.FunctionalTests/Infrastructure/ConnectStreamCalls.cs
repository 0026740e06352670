using System.Net;
using System.Net.Http.Headers;

namespace ProtoHttp.FunctionalTests.Infrastructure;

/// <summary>
/// The Connect paths of the streaming test service's three methods, and requests to them over HTTP/1.1 or h2c (a
/// request made by hand goes as HTTP/1.1 unless told otherwise, whatever the client's default).
/// </summary>
public sealed class ConnectStreamCalls(SampleServer server) : IDisposable
{
    public const string Count = "/protohttp.tests.streaming.StreamingService/Count";
    public const string Sum = "/protohttp.tests.streaming.StreamingService/Sum";
    public const string Echo = "/protohttp.tests.streaming.StreamingService/Echo";

    private readonly HttpClient _http2 = server.CreateHttp2Client();

    public HttpClient Http2 => _http2;

    public static HttpRequestMessage Post(string path, byte[] body, string contentType)
    {
        var content = new ByteArrayContent(body);
        content.Headers.ContentType = MediaTypeHeaderValue.Parse(contentType);
        return new HttpRequestMessage(HttpMethod.Post, path) { Content = content };
    }

    public Task<HttpResponseMessage> SendAsync(HttpRequestMessage request, bool http2)
    {
        if (!http2)
        {
            return server.Client.SendAsync(request);
        }

        request.Version = HttpVersion.Version20;
        request.VersionPolicy = HttpVersionPolicy.RequestVersionExact;
        return _http2.SendAsync(request);
    }

    public void Dispose() => _http2.Dispose();
}
