using System.Net;

namespace ProtoHttp.FunctionalTests.Infrastructure;

/// <summary>
/// Sends requests over HTTP/1.1 or h2c: <see cref="HttpClient.SendAsync(HttpRequestMessage)"/> takes the version from
/// the message, not from the client's defaults, so each message is set to the client's.
/// </summary>
public readonly struct StreamingClient(HttpClient client, bool http2)
{
    public Task<HttpResponseMessage> SendAsync(HttpRequestMessage request, HttpCompletionOption completion = HttpCompletionOption.ResponseContentRead, CancellationToken cancellationToken = default)
    {
        if (http2)
        {
            request.Version = HttpVersion.Version20;
            request.VersionPolicy = HttpVersionPolicy.RequestVersionExact;
        }

        return client.SendAsync(request, completion, cancellationToken);
    }
}
