using System.Collections.Concurrent;

namespace ProtoHttp.Client.FunctionalTests.Services;

/// <summary>What the server saw of each slow call, by name: whether its cancellation token fired.</summary>
public sealed class CallProbe
{
    private readonly ConcurrentDictionary<string, TaskCompletionSource<bool>> _calls = new();

    /// <summary>Completes with <see langword="true"/> when the call's token fired, <see langword="false"/> when it ran to its end.</summary>
    public Task<bool> Outcome(string probe) => Call(probe).Task;

    public void Report(string probe, bool cancelled) => Call(probe).TrySetResult(cancelled);

    private TaskCompletionSource<bool> Call(string probe) =>
        _calls.GetOrAdd(probe, _ => new TaskCompletionSource<bool>(TaskCreationOptions.RunContinuationsAsynchronously));
}
