namespace ProtoHttp.FunctionalTests.Services;

/// <summary>What the test service saw of its last slow call, so a test can wait for the server side to react.</summary>
public sealed class CallProbe
{
    private TaskCompletionSource _started = new(TaskCreationOptions.RunContinuationsAsynchronously);
    private TaskCompletionSource _cancelled = new(TaskCreationOptions.RunContinuationsAsynchronously);
    private int _startedCalls;

    public Task Started => _started.Task;

    /// <summary>How many slow calls have reached the service since the last <see cref="Reset"/>.</summary>
    public int StartedCalls => Volatile.Read(ref _startedCalls);

    public Task Cancelled => _cancelled.Task;

    public void Reset()
    {
        _started = new(TaskCreationOptions.RunContinuationsAsynchronously);
        _cancelled = new(TaskCreationOptions.RunContinuationsAsynchronously);
        Volatile.Write(ref _startedCalls, 0);
    }

    public void MarkStarted()
    {
        Interlocked.Increment(ref _startedCalls);
        _started.TrySetResult();
    }

    public void MarkCancelled() => _cancelled.TrySetResult();
}
