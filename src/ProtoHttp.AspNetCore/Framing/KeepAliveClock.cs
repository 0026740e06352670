using System.Collections.Concurrent;

namespace ProtoHttp.AspNetCore.Framing;

/// <summary>
/// One timer per keep-alive interval for all the event streams open with it, instead of a timer and a waiting loop per
/// stream: a stream costs an entry in a set while it is open (W5 holds 10,000 of them; docs/benchmarks.md). At each
/// tick every member is told, and writes a comment if it sent nothing since the last tick (docs/protocol.md section 10),
/// so an idle stream is silent for at most two intervals. The timer stops when the last member leaves.
/// </summary>
internal sealed class KeepAliveClock
{
    private static readonly ConcurrentDictionary<TimeSpan, KeepAliveClock> Clocks = new();

    private readonly TimeSpan _interval;
    private readonly ConcurrentDictionary<IKeepAliveMember, byte> _members = new();
    private readonly Lock _timerLock = new();
    private Timer? _timer;
    private int _ticking;

    private KeepAliveClock(TimeSpan interval) => _interval = interval;

    /// <summary>A stream that is told at each tick.</summary>
    internal interface IKeepAliveMember
    {
        /// <summary>Called at each tick, on a pool thread, while the member is joined; must not block.</summary>
        void OnKeepAliveTick();
    }

    /// <summary>Whether the timer runs: from the first member's joining until the last one leaves.</summary>
    public bool IsRunning
    {
        get
        {
            lock (_timerLock)
            {
                return _timer is not null;
            }
        }
    }

    /// <summary>The clock of <paramref name="interval"/>, shared by every stream with that interval in the process.</summary>
    public static KeepAliveClock For(TimeSpan interval) => Clocks.GetOrAdd(interval, static i => new KeepAliveClock(i));

    public void Join(IKeepAliveMember member)
    {
        _members.TryAdd(member, 0);
        lock (_timerLock)
        {
            _timer ??= new Timer(static state => ((KeepAliveClock)state!).Tick(), this, _interval, _interval);
        }
    }

    public void Leave(IKeepAliveMember member)
    {
        _members.TryRemove(member, out _);
        lock (_timerLock)
        {
            if (_members.IsEmpty && _timer is { } timer)
            {
                timer.Dispose();
                _timer = null;
            }
        }
    }

    private void Tick()
    {
        // A tick that outlasts the interval (thousands of members on a busy core) is not overlapped by the next one.
        if (Interlocked.Exchange(ref _ticking, 1) == 1)
        {
            return;
        }

        try
        {
            foreach (var member in _members.Keys)
            {
                member.OnKeepAliveTick();
            }
        }
        finally
        {
            Volatile.Write(ref _ticking, 0);
        }
    }
}
