using ProtoHttp.Bench.Streams;

namespace StreamLoad;

/// <summary>
/// One W6 subscriber: every sequence it received (to count lost and doubled ones against the publisher's), its delay
/// record, and, once its instance is killed, when it came back and when it had caught up.
/// </summary>
internal sealed class ScaleOutSubscriber(FanOutRecorder recorder, int home)
{
    private readonly FanOutRecorder.Subscriber _delays = new(recorder);
    private readonly List<long> _sequences = [];
    private readonly Lock _gate = new();
    private long _catchUpTo;

    /// <summary>The instance it subscribes on: 0 (A, which stays) or 1 (B, which is killed).</summary>
    public int Home { get; set; } = home;

    /// <summary>Whether it started on the instance that is killed.</summary>
    public bool Storm { get; } = home == 1;

    /// <summary>The id of the last event it read (SSE), sent as <c>Last-Event-ID</c> when it comes back.</summary>
    public string? LastEventId { get; set; }

    /// <summary>Gap notices it was given (messages older than the log could keep).</summary>
    public int Gaps { get; set; }

    /// <summary>The highest sequence it received.</summary>
    public long Newest { get; private set; }

    /// <summary>When (monotonic ns) it had every message published up to its return; 0 until then.</summary>
    public long CaughtUpNs { get; private set; }

    public void Received(long sequence, long publishedNs)
    {
        lock (_gate)
        {
            _sequences.Add(sequence);
            Newest = Math.Max(Newest, sequence);
            _delays.Received(sequence, publishedNs);
            if (_catchUpTo > 0 && CaughtUpNs == 0 && sequence >= _catchUpTo)
            {
                CaughtUpNs = StreamWorkload.NowNs();
            }
        }
    }

    /// <summary>
    /// It is subscribed again after its instance died: it has caught up when it has the newest message published by
    /// now (<paramref name="latestPublished"/>), or the next one when it had that already.
    /// </summary>
    public void CameBack(long latestPublished)
    {
        lock (_gate)
        {
            var last = _sequences.Count > 0 ? _sequences[^1] : 0;
            _catchUpTo = Math.Max(latestPublished, last + 1);
        }
    }

    /// <summary>Messages from its first up to <paramref name="lastPublished"/> it never got, and messages it got twice.</summary>
    public (long Lost, long Doubled) Count(long lastPublished)
    {
        lock (_gate)
        {
            if (_sequences.Count == 0)
            {
                return (0, 0);
            }

            var first = _sequences.Min();
            var distinct = _sequences.Where(s => s <= lastPublished).ToHashSet();
            var doubled = _sequences.Count - _sequences.Distinct().Count();
            return (lastPublished - first + 1 - distinct.Count, doubled);
        }
    }
}
