using System.Net.ServerSentEvents;
using System.Threading.Tasks.Sources;

namespace ProtoHttp.AspNetCore.Internal.Streaming;

/// <summary>
/// The source of a stream's one long-lived <see cref="SseFormatter"/> write: it hands the formatter one event at a time.
/// The formatter's continuation runs inline when an event is put (no context, continuations not forced asynchronous), and
/// it writes to a stream that completes synchronously, so by the time <see cref="TryPut"/> returns the event is framed and
/// in the response: nothing of it is left for a keep-alive comment to land inside.
/// </summary>
internal sealed class EventFeed<T> : IAsyncEnumerable<SseItem<T>>, IAsyncEnumerator<SseItem<T>>, IValueTaskSource<bool>
{
    private ManualResetValueTaskSourceCore<bool> _next;
    private bool _waiting;

    public SseItem<T> Current { get; private set; }

    /// <summary>Whether the formatter waits for an event: false before it started and after it ended or failed.</summary>
    public bool IsWaiting => _waiting;

    /// <summary>Hands the formatter <paramref name="item"/>.</summary>
    /// <returns>Whether the formatter wrote it and waits for the next; false when it failed on it.</returns>
    public bool TryPut(SseItem<T> item)
    {
        if (!_waiting)
        {
            return false;
        }

        _waiting = false;
        Current = item;
        _next.SetResult(true);
        return _waiting;
    }

    /// <summary>Ends the formatter's write, which returns its buffers.</summary>
    public void Complete()
    {
        if (_waiting)
        {
            _waiting = false;
            _next.SetResult(false);
        }
    }

    public IAsyncEnumerator<SseItem<T>> GetAsyncEnumerator(CancellationToken cancellationToken = default) => this;

    public ValueTask<bool> MoveNextAsync()
    {
        Current = default;
        _next.Reset();
        _waiting = true;
        return new ValueTask<bool>(this, _next.Version);
    }

    public ValueTask DisposeAsync() => default;

    bool IValueTaskSource<bool>.GetResult(short token) => _next.GetResult(token);

    ValueTaskSourceStatus IValueTaskSource<bool>.GetStatus(short token) => _next.GetStatus(token);

    void IValueTaskSource<bool>.OnCompleted(Action<object?> continuation, object? state, short token, ValueTaskSourceOnCompletedFlags flags) =>
        _next.OnCompleted(continuation, state, token, flags);
}
