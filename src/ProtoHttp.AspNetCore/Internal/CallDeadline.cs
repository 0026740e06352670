using Microsoft.AspNetCore.Http;

namespace ProtoHttp.AspNetCore.Internal;

/// <summary>
/// A call's deadline from its <c>Connect-Timeout-Ms</c>: the token the call runs under (the request's own, linked to a
/// timer when there is a timeout) and the time the service sees in <c>ServerCallContext.Deadline</c>.
/// </summary>
internal sealed class CallDeadline : IDisposable
{
    private readonly HttpContext _context;
    private readonly CancellationTokenSource? _timer;

    private CallDeadline(HttpContext context, TimeSpan? timeout)
    {
        _context = context;
        Token = context.RequestAborted;
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

    public CancellationToken Token { get; }

    /// <summary>When the call must end; <see cref="DateTime.MaxValue"/> without a timeout.</summary>
    public DateTime Utc { get; } = DateTime.MaxValue;

    /// <summary>Whether the deadline passed, as opposed to the client going away.</summary>
    public bool Expired => _timer is { IsCancellationRequested: true } && !_context.RequestAborted.IsCancellationRequested;

    /// <summary>Starts the deadline of <paramref name="timeout"/> (none when null).</summary>
    public static CallDeadline Start(HttpContext context, TimeSpan? timeout) => new(context, timeout);

    public void Dispose() => _timer?.Dispose();
}
