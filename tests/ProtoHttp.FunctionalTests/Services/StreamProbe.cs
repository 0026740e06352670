namespace ProtoHttp.FunctionalTests.Services;

/// <summary>
/// What the streaming test service saw of its last call, so a test can wait for the server side to react instead of
/// waiting for time to pass: when it started, when its token fired, when a write did not complete at once (the network
/// is holding it back), and a gate the test opens to let it write.
/// </summary>
public sealed class StreamProbe
{
    private TaskCompletionSource _started = New();
    private TaskCompletionSource _cancelled = New();
    private TaskCompletionSource<int> _blockedOnWrite = new(TaskCreationOptions.RunContinuationsAsynchronously);
    private TaskCompletionSource _gate = New();

    public Task Started => _started.Task;

    public Task Cancelled => _cancelled.Task;

    /// <summary>Completes with the number of ticks already written when a write first had to wait for the network.</summary>
    public Task<int> BlockedOnWrite => _blockedOnWrite.Task;

    public Task Gate => _gate.Task;

    public void Reset()
    {
        _started = New();
        _cancelled = New();
        _blockedOnWrite = new(TaskCreationOptions.RunContinuationsAsynchronously);
        _gate = New();
    }

    public void MarkStarted() => _started.TrySetResult();

    public void MarkCancelled() => _cancelled.TrySetResult();

    public void MarkBlockedOnWrite(int written) => _blockedOnWrite.TrySetResult(written);

    public void OpenGate() => _gate.TrySetResult();

    private static TaskCompletionSource New() => new(TaskCreationOptions.RunContinuationsAsynchronously);
}
