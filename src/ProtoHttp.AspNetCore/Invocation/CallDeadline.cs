using Microsoft.AspNetCore.Http;

namespace ProtoHttp.AspNetCore.Invocation;

/// <summary>
/// A call's deadline, the sooner of the client's (<c>Connect-Timeout-Ms</c>, <c>grpc-timeout</c>) and the host's (the
/// request-timeout middleware's, which <see cref="HostRequestTimeout"/> takes over): the token the call runs under,
/// linked to the request's own and cancelled by a timer, and the time the service sees in <c>ServerCallContext.Deadline</c>.
/// Made only for a call that has a timeout; without one the call runs under <c>RequestAborted</c> and allocates nothing
/// for its deadline.
/// </summary>
internal sealed class CallDeadline : IDisposable
{
    private readonly CancellationTokenSource _timer;
    private readonly CancellationToken _requestAborted;

    private CallDeadline(TimeSpan timeout, CancellationToken requestAborted)
    {
        _requestAborted = requestAborted;
        Timeout = timeout;
        Utc = DateTime.UtcNow + timeout;
        _timer = CancellationTokenSource.CreateLinkedTokenSource(requestAborted);
        Token = _timer.Token;
        if (timeout.TotalMilliseconds <= int.MaxValue)
        {
            // Beyond 24.8 days a timer cannot be set; the deadline is still reported.
            _timer.CancelAfter(timeout);
        }
    }

    /// <summary>
    /// The call's token. Kept apart from the timer: a service may outlive its call (past the deadline the call answers
    /// without waiting for it), and the timer is disposed when the call ends, after which asking the timer for its token
    /// throws <see cref="ObjectDisposedException"/>; this copy still says whether it fired.
    /// </summary>
    public CancellationToken Token { get; }

    /// <summary>How long the call may take, from the client or the host, whichever is shorter.</summary>
    public TimeSpan Timeout { get; }

    /// <summary>When the call must end.</summary>
    public DateTime Utc { get; }

    /// <summary>Whether the deadline passed, as opposed to the client going away.</summary>
    public bool Expired => _timer.IsCancellationRequested && !_requestAborted.IsCancellationRequested;

    /// <summary>
    /// Starts the deadline of the client's <paramref name="timeout"/> (none when null) or the host's, whichever is
    /// sooner; a <paramref name="streaming"/> call is subject to the host's only when its endpoint names one.
    /// <see langword="null"/> when there is neither. <paramref name="hostExpired"/>: whether the host's timeout had
    /// passed already, before the call could take it over.
    /// </summary>
    public static CallDeadline? Start(HttpContext context, TimeSpan? timeout, bool streaming, out bool hostExpired)
    {
        var host = HostRequestTimeout.TakeOver(context, streaming, out hostExpired);
        var sooner = host < timeout || timeout is null ? host : timeout;
        return sooner is { } span ? new CallDeadline(span, context.RequestAborted) : null;
    }

    public void Dispose() => _timer.Dispose();
}
