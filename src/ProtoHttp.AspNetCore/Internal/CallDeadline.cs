using Microsoft.AspNetCore.Http;

namespace ProtoHttp.AspNetCore.Internal;

/// <summary>
/// A call's deadline: the sooner of the client's (<c>Connect-Timeout-Ms</c>) and the host's (the request-timeout
/// middleware's, which <see cref="HostRequestTimeout"/> takes over); the token the call runs under (the request's own,
/// linked to a timer when there is a deadline) and the time the service sees in <c>ServerCallContext.Deadline</c>.
/// A struct held inside the call's one object (<see cref="Pipeline.ProtoHttpServerCallContext"/>), so a call allocates
/// no deadline of its own; <c>default</c> is a deadline not started yet.
/// </summary>
internal readonly struct CallDeadline : IDisposable
{
    private readonly HttpContext? _context;
    private readonly CancellationTokenSource? _timer;
    private readonly bool _hostExpired;

    private CallDeadline(HttpContext context, TimeSpan? timeout, bool hostExpired)
    {
        _context = context;
        _hostExpired = hostExpired;
        Token = context.RequestAborted;
        Timeout = timeout;
        if (timeout is not { } span)
        {
            return;
        }

        Utc = DateTime.UtcNow + span;
        _timer = CancellationTokenSource.CreateLinkedTokenSource(context.RequestAborted);
        if (span.TotalMilliseconds <= int.MaxValue)
        {
            // Beyond 24.8 days a timer cannot be set; the deadline is still reported.
            _timer.CancelAfter(span);
        }

        Token = _timer.Token;
    }

    /// <summary>Whether <see cref="Start"/> made it, as opposed to <c>default</c>.</summary>
    public bool IsStarted => _context is not null;

    public CancellationToken Token { get; }

    /// <summary>How long the call may take, from the client or the host, whichever is shorter; null without a deadline.</summary>
    public TimeSpan? Timeout { get; }

    /// <summary>When the call must end; <see cref="DateTime.MaxValue"/> without a timeout.</summary>
    public DateTime Utc { get; } = DateTime.MaxValue;

    /// <summary>Whether the deadline passed, as opposed to the client going away.</summary>
    public bool Expired => _hostExpired || _timer is { IsCancellationRequested: true } && !_context!.RequestAborted.IsCancellationRequested;

    /// <summary>
    /// Starts the deadline of the client's <paramref name="timeout"/> (none when null) or the host's, whichever is
    /// sooner; a <paramref name="streaming"/> call is subject to the host's only when its endpoint names one.
    /// </summary>
    public static CallDeadline Start(HttpContext context, TimeSpan? timeout, bool streaming)
    {
        var host = HostRequestTimeout.TakeOver(context, streaming, out var hostExpired);
        return new(context, host < timeout || timeout is null ? host : timeout, hostExpired);
    }

    public void Dispose() => _timer?.Dispose();
}
