using System.Threading.Channels;

namespace ProtoHttp.FunctionalTests.Services;

/// <summary>
/// Counts the per-call service instances ProtoHttp made and released, so a test can wait for the release itself
/// (an event, not a sleep) and then check that each instance was released once, and only after its call returned.
/// </summary>
public sealed class DisposalProbe
{
    private readonly Channel<bool> _released = Channel.CreateUnbounded<bool>();
    private int _created;
    private int _releases;
    private int _releasedWhileRunning;
    private int _releasedTwice;

    public int Created => Volatile.Read(ref _created);

    public int Releases => Volatile.Read(ref _releases);

    /// <summary>Releases that came while a call of the instance was still inside the service.</summary>
    public int ReleasedWhileRunning => Volatile.Read(ref _releasedWhileRunning);

    public int ReleasedTwice => Volatile.Read(ref _releasedTwice);

    public void MarkCreated() => Interlocked.Increment(ref _created);

    public void MarkReleased(bool whileRunning, bool twice)
    {
        if (whileRunning)
        {
            Interlocked.Increment(ref _releasedWhileRunning);
        }

        if (twice)
        {
            Interlocked.Increment(ref _releasedTwice);
        }

        Interlocked.Increment(ref _releases);
        _released.Writer.TryWrite(true);
    }

    /// <summary>Waits for the next release; the timeout is only a guard against a hang.</summary>
    public async Task<bool> NextReleaseAsync()
    {
        try
        {
            await _released.Reader.ReadAsync().AsTask().WaitAsync(TimeSpan.FromSeconds(30));
            return true;
        }
        catch (TimeoutException)
        {
            return false;
        }
    }
}
