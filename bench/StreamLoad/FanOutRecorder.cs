using ProtoHttp.Bench.Streams;

namespace StreamLoad;

/// <summary>
/// What W5's subscribers report, shared by all of them: readiness, errors, and while the window is open the ticks
/// delivered, their delays (publish stamp to receipt, 50 µs buckets up to 10 s), and ticks missed by sequence.
/// </summary>
internal sealed class FanOutRecorder
{
    private const long BucketNs = 50_000;
    private readonly long[] _buckets = new long[200_001];
    private long _ready;
    private long _errors;
    private long _delivered;
    private long _missed;
    private long _minSequence = long.MaxValue;
    private long _maxSequence;
    private volatile bool _measuring;
    private string? _firstError;

    public long Ready => Interlocked.Read(ref _ready);

    public long Errors => Interlocked.Read(ref _errors);

    public long Delivered => Interlocked.Read(ref _delivered);

    public long Missed => Interlocked.Read(ref _missed);

    public string? FirstError => _firstError;

    /// <summary>Ticks published in the window, as the subscribers saw their sequence numbers.</summary>
    public long TicksInWindow => _maxSequence >= _minSequence ? _maxSequence - _minSequence + 1 : 0;

    public bool Measuring { get => _measuring; set => _measuring = value; }

    public void Error(Exception ex)
    {
        Interlocked.Increment(ref _errors);
        Interlocked.CompareExchange(ref _firstError, ex.GetType().Name + ": " + ex.Message, null);
    }

    /// <summary>One subscriber's state: the last sequence it saw.</summary>
    public sealed class Subscriber(FanOutRecorder recorder)
    {
        private long _last;

        public void Received(long sequence, long publishedNs)
        {
            var now = StreamWorkload.NowNs();
            if (_last == 0)
            {
                Interlocked.Increment(ref recorder._ready);
            }
            else if (recorder._measuring)
            {
                if (sequence > _last + 1)
                {
                    Interlocked.Add(ref recorder._missed, sequence - _last - 1);
                }

                Interlocked.Increment(ref recorder._delivered);
                var bucket = Math.Clamp((now - publishedNs) / BucketNs, 0, recorder._buckets.Length - 1);
                Interlocked.Increment(ref recorder._buckets[bucket]);
                InterlockedMin(ref recorder._minSequence, sequence);
                InterlockedMax(ref recorder._maxSequence, sequence);
            }

            _last = sequence;
        }
    }

    /// <summary>The delay at quantile <paramref name="q"/> of the window's deliveries, in milliseconds.</summary>
    public double DelayMs(double q)
    {
        var total = _buckets.Sum();
        if (total == 0)
        {
            return double.NaN;
        }

        var rank = (long)Math.Ceiling(q * total);
        long seen = 0;
        for (var i = 0; i < _buckets.Length; i++)
        {
            seen += _buckets[i];
            if (seen >= rank)
            {
                return (i + 1) * BucketNs / 1e6;
            }
        }

        return _buckets.Length * BucketNs / 1e6;
    }

    private static void InterlockedMin(ref long target, long value)
    {
        var current = Interlocked.Read(ref target);
        while (value < current && Interlocked.CompareExchange(ref target, value, current) != current)
        {
            current = Interlocked.Read(ref target);
        }
    }

    private static void InterlockedMax(ref long target, long value)
    {
        var current = Interlocked.Read(ref target);
        while (value > current && Interlocked.CompareExchange(ref target, value, current) != current)
        {
            current = Interlocked.Read(ref target);
        }
    }
}
