using System.Collections.Concurrent;

namespace ProtoHttp.Client.FunctionalTests.Services;

/// <summary>What the server saw of each slow call, by name: that it started, and whether its cancellation token fired.</summary>
public sealed class CallProbe
{
    private readonly ConcurrentDictionary<string, TaskCompletionSource<bool>> _calls = new();
    private readonly ConcurrentDictionary<string, TaskCompletionSource> _started = new();

    /// <summary>Completes when the service has begun the call, so a test cancels a call that is really running.</summary>
    public Task Started(string probe) => Start(probe).Task;

    public void ReportStarted(string probe) => Start(probe).TrySetResult();

    /// <summary>Completes with <see langword="true"/> when the call's token fired, <see langword="false"/> when it ran to its end.</summary>
    public Task<bool> Outcome(string probe) => Call(probe).Task;

    public void Report(string probe, bool cancelled) => Call(probe).TrySetResult(cancelled);

    private TaskCompletionSource Start(string probe) =>
        _started.GetOrAdd(probe, _ => new TaskCompletionSource(TaskCreationOptions.RunContinuationsAsynchronously));

    private TaskCompletionSource<bool> Call(string probe) =>
        _calls.GetOrAdd(probe, _ => new TaskCompletionSource<bool>(TaskCreationOptions.RunContinuationsAsynchronously));
}
