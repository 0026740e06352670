using System.Net;
using System.Net.Http.Headers;

namespace ProtoHttp.FunctionalTests.Infrastructure;

/// <summary>
/// A request body with a Content-Length that sends its first <c>split</c> bytes at once and the rest only when
/// <c>release</c> completes: a slow client's upload of a known length.
/// </summary>
public sealed class HeldBody : HttpContent
{
    private readonly byte[] _body;
    private readonly int _split;
    private readonly Func<Task> _release;
    private readonly TaskCompletionSource _done = new(TaskCreationOptions.RunContinuationsAsynchronously);

    public HeldBody(byte[] body, int split, Func<Task> release, string contentType)
    {
        (_body, _split, _release) = (body, split, release);
        Headers.ContentType = MediaTypeHeaderValue.Parse(contentType);
    }

    /// <summary>
    /// Completes when the body is done with: its last byte handed to the connection, or the send given up (HttpClient
    /// stops sending an h2 request's body once the answer has ended the stream).
    /// </summary>
    public Task Done => _done.Task;

    protected override async Task SerializeToStreamAsync(Stream stream, TransportContext? context)
    {
        try
        {
            await stream.WriteAsync(_body.AsMemory(0, _split));
            await stream.FlushAsync();
            await _release();
            await stream.WriteAsync(_body.AsMemory(_split));
            await stream.FlushAsync();
        }
        finally
        {
            _done.TrySetResult();
        }
    }

    protected override bool TryComputeLength(out long length)
    {
        length = _body.Length;
        return true;
    }
}
