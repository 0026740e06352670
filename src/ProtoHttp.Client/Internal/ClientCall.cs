using Grpc.Core;

namespace ProtoHttp.Client.Internal;

/// <summary>
/// What every kind of call shares: the request's headers and deadline, the cancellation that Dispose, the deadline and
/// the caller's token trigger, the outcome the generated client's call object asks for (headers, status, trailers),
/// and the one place a failure of any shape becomes the call's <see cref="RpcException"/>.
/// </summary>
internal abstract class ClientCall<TRequest, TResponse> : IDisposable
    where TRequest : class
    where TResponse : class
{
    // Connect-Timeout-Ms allows 10 digits (docs/protocol.md section 6).
    private const long MaxTimeoutMs = 9_999_999_999;

    private readonly TaskCompletionSource<Metadata> _headers = new(TaskCreationOptions.RunContinuationsAsynchronously);
    private readonly CancellationTokenSource _cancellation;
    private readonly Lock _outcomeLock = new();
    private Status? _status;
    private Metadata? _trailers;
    private bool _deadlinePassed;
    private volatile bool _disposed;

    protected ClientCall(ClientMethod method, CallOptions options)
    {
        Method = method;
        Options = options;
        _cancellation = CancellationTokenSource.CreateLinkedTokenSource(options.CancellationToken);
        CallToken = _cancellation.Token;
    }

    protected ClientMethod Method { get; }

    protected CallOptions Options { get; }

    /// <summary>Fires on Dispose, at the deadline and with the caller's token; kept, as the source is disposed when the call ends.</summary>
    protected CancellationToken CallToken { get; }

    /// <summary>The outcome once the call has one; a failed call's exception, to throw again.</summary>
    protected Status? Outcome => _status;

    protected RpcException? Failure { get; private set; }

    public Task<Metadata> ResponseHeadersAsync => _headers.Task;

    public Status GetStatus() =>
        _status ?? throw new InvalidOperationException("The call has no status yet: it is still running.");

    public Metadata GetTrailers() =>
        _trailers ?? throw new InvalidOperationException("The call has no trailers yet: it is still running.");

    public void Dispose()
    {
        // Disposing a call that is still running cancels it, as gRPC's does.
        if (_status is null)
        {
            _disposed = true;
            Cancel();
        }

        OnDisposed();
    }

    /// <summary>Releases what the call still holds (its response), once it has an outcome or was disposed.</summary>
    protected virtual void OnDisposed()
    {
    }

    protected void Cancel()
    {
        try
        {
            _cancellation.Cancel();
        }
        catch (ObjectDisposedException)
        {
            // The call finished meanwhile.
        }
    }

    /// <summary>The HTTP request to the method's URI, with the metadata as headers and the deadline set.</summary>
    /// <exception cref="OperationCanceledException">The deadline has already passed.</exception>
    protected HttpRequestMessage CreateRequest(HttpClient httpClient, HttpContent content)
    {
        var httpRequest = new HttpRequestMessage(HttpMethod.Post, Method.Uri)
        {
            // Honour the HttpClient's choice of HTTP version, which requests built by hand do not get by default.
            Version = httpClient.DefaultRequestVersion,
            VersionPolicy = httpClient.DefaultVersionPolicy,
            Content = content,
        };

        Method.Settings.Protocol.PrepareCall(httpRequest);

        if (Options.Headers is { Count: > 0 } metadata)
        {
            HeaderMetadata.AddToRequest(metadata, httpRequest.Headers);
        }

        if (StartDeadline() is { } timeout)
        {
            var protocol = Method.Settings.Protocol;
            httpRequest.Headers.TryAddWithoutValidation(protocol.TimeoutHeader, protocol.TimeoutValue(timeout));
        }

        return httpRequest;
    }

    /// <summary>
    /// Starts the call's deadline, if it has one: the call's token fires when it passes. Returns the time left in
    /// milliseconds, rounded up (a server must never see a shorter deadline than the client keeps), for the protocol's
    /// timeout header.
    /// </summary>
    /// <exception cref="OperationCanceledException">The deadline has already passed.</exception>
    protected long? StartDeadline()
    {
        if (Options.Deadline is not { } deadline || deadline == DateTime.MaxValue)
        {
            return null;
        }

        var remaining = deadline.ToUniversalTime() - DateTime.UtcNow;
        if (remaining <= TimeSpan.Zero)
        {
            _deadlinePassed = true;
            throw new OperationCanceledException();
        }

        var milliseconds = Math.Min((long)Math.Ceiling(remaining.TotalMilliseconds), MaxTimeoutMs);
        if (milliseconds <= int.MaxValue)
        {
            _cancellation.CancelAfter(TimeSpan.FromMilliseconds(milliseconds));
        }

        return milliseconds;
    }

    protected void SetHeaders(Metadata headers) => _headers.TrySetResult(headers);

    /// <summary>The call succeeded: its status is OK and <paramref name="trailers"/> are its trailers.</summary>
    protected void Succeed(Metadata trailers)
    {
        lock (_outcomeLock)
        {
            if (_status is not null)
            {
                return;
            }

            _trailers = trailers;
            _status = Status.DefaultSuccess;
        }

        _cancellation.Dispose();
    }

    /// <summary>Ends the call with the failure <paramref name="exception"/> stands for; returns the exception to throw.</summary>
    protected RpcException Fail(Exception exception)
    {
        RpcException rpc;
        lock (_outcomeLock)
        {
            // The first outcome stands: a streaming call can fail on its reading and its writing side at once.
            if (Failure is { } earlier)
            {
                return earlier;
            }

            if (_status is not null)
            {
                return ToRpcException(exception); // It succeeded before: this failure changes nothing.
            }

            rpc = ToRpcException(exception);
            _trailers = rpc.Trailers;
            Failure = rpc;
            _status = rpc.Status;
        }

        if (_headers.TrySetException(rpc))
        {
            _ = _headers.Task.Exception; // Observed: a caller that never asks for headers must not see it surface later.
        }

        // Whatever else of the call is still in flight (a streaming call's other direction) ends with it.
        Cancel();
        _cancellation.Dispose();
        return rpc;
    }

    /// <summary>Turns what the transport threw into the call's status; a hook for failures only one kind of call knows.</summary>
    protected virtual RpcException? Translate(Exception exception) => null;

    // Once the call's token has fired, whatever the transport threw is only the shape that cancellation took.
    private RpcException ToRpcException(Exception exception) => exception switch
    {
        RpcException rpc => rpc,
        _ when Options.CancellationToken.IsCancellationRequested =>
            Error(StatusCode.Cancelled, $"{Method.FullName} was cancelled by its CancellationToken."),
        _ when _disposed =>
            Error(StatusCode.Cancelled, $"{Method.FullName} was disposed before it completed."),
        _ when Translate(exception) is { } translated => translated,
        _ when _deadlinePassed || _cancellation.IsCancellationRequested =>
            Error(StatusCode.DeadlineExceeded, $"The deadline passed before {Method.FullName} returned."),
        OperationCanceledException { InnerException: TimeoutException } =>
            Error(StatusCode.DeadlineExceeded, $"The HttpClient's Timeout passed before {Method.FullName} returned."),
        HttpRequestException { HttpRequestError: HttpRequestError.ConnectionError or HttpRequestError.NameResolutionError or HttpRequestError.SecureConnectionError } =>
            Error(StatusCode.Unavailable, $"{Method.Uri} could not be reached: {exception.Message}", exception),
        HttpRequestException or IOException =>
            Error(StatusCode.Unavailable, $"The connection to {Method.Uri} failed during the call: {exception.Message}", exception),
        _ => Error(StatusCode.Internal, $"{Method.FullName} failed in the client: {exception.Message}", exception),
    };

    protected static RpcException Error(StatusCode code, string detail, Exception? inner = null) =>
        new(new Status(code, detail, inner));
}
