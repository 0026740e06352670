using System.Net;

namespace ProtoHttp.Client.FunctionalTests.Infrastructure;

/// <summary>
/// An <c>HttpClient</c> handler that spoils the client's request on its way out, so the server's own rejections
/// (wrong verb, media type, header, body) can be seen arriving through the generated client; it also keeps the
/// HTTP status of the last answer.
/// </summary>
public sealed class RewritingHandler(Action<HttpRequestMessage>? rewrite = null) : DelegatingHandler(new SocketsHttpHandler())
{
    public HttpStatusCode? LastStatus { get; private set; }

    protected override async Task<HttpResponseMessage> SendAsync(HttpRequestMessage request, CancellationToken cancellationToken)
    {
        rewrite?.Invoke(request);
        var response = await base.SendAsync(request, cancellationToken);
        LastStatus = response.StatusCode;
        return response;
    }
}
