namespace ProtoHttp.FunctionalTests.Services;

/// <summary>
/// What a disposable test service shares: it tells the probe it was made, tracks whether one of its calls is still
/// inside the service, and reports its release (early or repeated releases are counted as faults).
/// </summary>
public sealed class DisposableInstance
{
    private readonly DisposalProbe _probe;
    private int _running;
    private int _released;

    public DisposableInstance(DisposalProbe probe)
    {
        _probe = probe;
        probe.MarkCreated();
    }

    public async Task<T> RunAsync<T>(Func<Task<T>> call)
    {
        Interlocked.Increment(ref _running);
        try
        {
            return await call();
        }
        finally
        {
            Interlocked.Decrement(ref _running);
        }
    }

    public async Task RunAsync(Func<Task> call)
    {
        Interlocked.Increment(ref _running);
        try
        {
            await call();
        }
        finally
        {
            Interlocked.Decrement(ref _running);
        }
    }

    public void Release() =>
        _probe.MarkReleased(whileRunning: Volatile.Read(ref _running) != 0, twice: Interlocked.Exchange(ref _released, 1) == 1);
}
