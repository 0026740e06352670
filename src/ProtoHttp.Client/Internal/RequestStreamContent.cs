using System.Net;

namespace ProtoHttp.Client.Internal;

/// <summary>
/// The request body of a client-streaming or bidirectional call: a push body that stays open while the call's
/// <see cref="RequestStreamWriter{TRequest}"/> writes envelopes into it, and ends when the writer completes. HttpClient
/// hands over the request stream once the headers are sent; the writer waits for it.
/// </summary>
internal sealed class RequestStreamContent : HttpContent, IRequestBody
{
    private readonly TaskCompletionSource<Stream> _stream = new(TaskCreationOptions.RunContinuationsAsynchronously);
    private readonly TaskCompletionSource _completed = new(TaskCreationOptions.RunContinuationsAsynchronously);

    private readonly CancellationToken _callToken;

    /// <param name="contentType">The envelope type.</param>
    /// <param name="callToken">The call's token: a call cancelled, disposed or past its deadline resets the body instead of ending it.</param>
    public RequestStreamContent(string contentType, CancellationToken callToken)
    {
        _callToken = callToken;
        Headers.TryAddWithoutValidation("Content-Type", contentType);
    }

    /// <summary>The request stream, once HttpClient has begun sending the body.</summary>
    public Task<Stream> Stream => _stream.Task;

    /// <summary>The body is complete: HttpClient ends it (HTTP/2's END_STREAM, HTTP/1.1's last chunk).</summary>
    public Task CompleteAsync()
    {
        _completed.TrySetResult();
        return Task.CompletedTask;
    }

    /// <summary>The call ended before or while the body was sent: a writer still waiting for the stream gives up.</summary>
    public void Abort()
    {
        _stream.TrySetCanceled();
        _completed.TrySetResult();
    }

    protected override async Task SerializeToStreamAsync(Stream stream, TransportContext? context, CancellationToken cancellationToken)
    {
        _stream.TrySetResult(stream);

        // The body lasts as long as the writer keeps it open. HttpClient cancels the wait when the request ends early.
        var cancelled = new TaskCompletionSource();
        await using (cancellationToken.Register(static state => ((TaskCompletionSource)state!).TrySetResult(), cancelled))
        {
            await Task.WhenAny(_completed.Task, cancelled.Task).ConfigureAwait(false);
        }

        // A call that was cancelled must not look finished to the server: throwing makes HttpClient reset the stream
        // (or close the HTTP/1.1 connection), so the service's token fires instead of its request stream ending well.
        // Any other early end (a connection that failed) ends quietly, and HttpClient's own exception says why.
        _callToken.ThrowIfCancellationRequested();
    }

    protected override Task SerializeToStreamAsync(Stream stream, TransportContext? context) =>
        SerializeToStreamAsync(stream, context, CancellationToken.None);

    // Unknown: the body is chunked over HTTP/1.1 and a series of DATA frames over HTTP/2.
    protected override bool TryComputeLength(out long length)
    {
        length = 0;
        return false;
    }
}
