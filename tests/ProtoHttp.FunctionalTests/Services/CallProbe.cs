namespace ProtoHttp.FunctionalTests.Services;

/// <summary>What the test service saw of its last slow call, so a test can wait for the server side to react.</summary>
public sealed class CallProbe
{
    private TaskCompletionSource _started = new(TaskCreationOptions.RunContinuationsAsynchronously);
    private TaskCompletionSource _cancelled = new(TaskCreationOptions.RunContinuationsAsynchronously);

    public Task Started => _started.Task;

    public Task Cancelled => _cancelled.Task;

    public void Reset()
    {
        _started = new(TaskCreationOptions.RunContinuationsAsynchronously);
        _cancelled = new(TaskCreationOptions.RunContinuationsAsynchronously);
    }

    public void MarkStarted() => _started.TrySetResult();

    public void MarkCancelled() => _cancelled.TrySetResult();
}
