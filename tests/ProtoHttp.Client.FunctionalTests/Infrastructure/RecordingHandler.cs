namespace ProtoHttp.Client.FunctionalTests.Infrastructure;

/// <summary>An <c>HttpClient</c> handler that keeps what went out and what came back: the requests and the answers' headers.</summary>
public sealed class RecordingHandler() : DelegatingHandler(new SocketsHttpHandler())
{
    public List<HttpRequestMessage> Requests { get; } = [];

    public List<HttpResponseMessage> Responses { get; } = [];

    public IEnumerable<string?> RequestTypes => Requests.Select(request => request.Content?.Headers.ContentType?.MediaType);

    public IEnumerable<string?> ResponseTypes => Responses.Select(response => response.Content.Headers.ContentType?.ToString());

    protected override async Task<HttpResponseMessage> SendAsync(HttpRequestMessage request, CancellationToken cancellationToken)
    {
        Requests.Add(request);
        var response = await base.SendAsync(request, cancellationToken);
        Responses.Add(response);
        return response;
    }
}
