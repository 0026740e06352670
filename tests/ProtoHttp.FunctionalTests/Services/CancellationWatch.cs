namespace ProtoHttp.FunctionalTests.Services;

/// <summary>
/// Reports a service's token firing, whether the service is still inside when it fires or leaves because of it. A bare
/// <c>using var registration = token.Register(mark)</c> can miss the second case: callbacks run newest first, so the
/// service's own await on the token (registered later) can end the method inline, and disposing the registration then
/// removes a callback that had not run yet.
/// </summary>
public sealed class CancellationWatch : IDisposable
{
    private readonly CancellationToken _token;
    private readonly Action _mark;
    private readonly CancellationTokenRegistration _registration;

    private CancellationWatch(Action mark, CancellationToken token)
    {
        _token = token;
        _mark = mark;
        _registration = token.Register(mark);
    }

    public static CancellationWatch Start(Action mark, CancellationToken token) => new(mark, token);

    public void Dispose()
    {
        _registration.Dispose();
        if (_token.IsCancellationRequested)
        {
            _mark();
        }
    }
}
