using System.Net;
using System.Net.Http.Headers;
using System.Text;
using Google.Protobuf;

namespace ProtoHttp.Tests.Client;

/// <summary>Stands in for the server: records the exact request the invoker sends and answers what a test says.</summary>
internal sealed class FakeHandler(Func<HttpRequestMessage, CancellationToken, Task<HttpResponseMessage>> respond) : HttpMessageHandler
{
    public FakeHandler(HttpResponseMessage response)
        : this((_, _) => Task.FromResult(response))
    {
    }

    public HttpRequestMessage? Request { get; private set; }

    public byte[]? Body { get; private set; }

    /// <summary>The request's Content-Length, read while it is sent: the content is disposed with the request.</summary>
    public long? ContentLength { get; private set; }

    /// <summary>The request's Content-Type, read while it is sent.</summary>
    public string? ContentType { get; private set; }

    public int Calls { get; private set; }

    public static HttpResponseMessage Message(IMessage message, string format = CodecNames.Protobuf, HttpStatusCode status = HttpStatusCode.OK)
    {
        var codecs = new MessageCodecs(FormatOptions.Default);
        var output = new System.Buffers.ArrayBufferWriter<byte>();
        codecs.Codec(format).Write(message, output);
        return Raw(status, codecs.Canonical(format).ContentType, output.WrittenSpan.ToArray());
    }

    public static HttpResponseMessage Raw(HttpStatusCode status, string? contentType, string body) =>
        Raw(status, contentType, Encoding.UTF8.GetBytes(body));

    public static HttpResponseMessage Raw(HttpStatusCode status, string? contentType, byte[] body)
    {
        var content = new ByteArrayContent(body);
        if (contentType is not null)
        {
            content.Headers.ContentType = MediaTypeHeaderValue.Parse(contentType);
        }

        return new HttpResponseMessage(status) { Content = content };
    }

    protected override async Task<HttpResponseMessage> SendAsync(HttpRequestMessage request, CancellationToken cancellationToken)
    {
        Calls++;
        Request = request;
        ContentLength = request.Content?.Headers.ContentLength;
        ContentType = request.Content?.Headers.ContentType?.ToString();
        Body = request.Content is null ? null : await request.Content.ReadAsByteArrayAsync(cancellationToken);
        return await respond(request, cancellationToken);
    }
}
