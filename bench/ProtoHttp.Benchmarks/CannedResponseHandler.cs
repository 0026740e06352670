using System.Net;
using System.Net.Http.Headers;

namespace ProtoHttp.Benchmarks;

/// <summary>An in-memory server for the client benchmark: answers every request with the same protobuf body.</summary>
internal sealed class CannedResponseHandler(byte[] body, string contentType) : HttpMessageHandler
{
    private readonly MediaTypeHeaderValue _contentType = MediaTypeHeaderValue.Parse(contentType);

    protected override async Task<HttpResponseMessage> SendAsync(HttpRequestMessage request, CancellationToken cancellationToken)
    {
        // Drain the request as a socket handler would, so the client's serialization is part of the measurement.
        if (request.Content is not null)
        {
            await request.Content.CopyToAsync(Stream.Null, cancellationToken);
        }

        var content = new ByteArrayContent(body);
        content.Headers.ContentType = _contentType;
        return new HttpResponseMessage(HttpStatusCode.OK) { Content = content, RequestMessage = request };
    }
}
