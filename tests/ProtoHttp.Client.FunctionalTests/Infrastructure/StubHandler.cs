namespace ProtoHttp.Client.FunctionalTests.Infrastructure;

/// <summary>
/// A server of a few lines: answers every request with what <paramref name="answer"/> makes of it, and keeps the last
/// request and its body, so answers no real server here sends (gzip, malformed streams) can reach the client.
/// </summary>
public sealed class StubHandler(Func<HttpRequestMessage, HttpResponseMessage> answer) : HttpMessageHandler
{
    public HttpRequestMessage? LastRequest { get; private set; }

    public byte[] LastBody { get; private set; } = [];

    protected override async Task<HttpResponseMessage> SendAsync(HttpRequestMessage request, CancellationToken cancellationToken)
    {
        LastRequest = request;
        LastBody = request.Content is null ? [] : await request.Content.ReadAsByteArrayAsync(cancellationToken);
        var response = answer(request);
        response.RequestMessage = request;
        return response;
    }
}
