using System.Diagnostics;

namespace StreamLoad.Duplex;

/// <summary>
/// W7's round trips while the window is open: how many, and their times in 10 µs buckets up to 10 s; errors and the
/// first one's text at any time.
/// </summary>
internal sealed class RoundTripRecorder
{
    private const double BucketMs = 0.01;
    private readonly long[] _buckets = new long[1_000_001];
    private long _count;
    private long _errors;
    private volatile bool _measuring;
    private string? _firstError;

    public long Count => Interlocked.Read(ref _count);

    public long Errors => Interlocked.Read(ref _errors);

    public string? FirstError => _firstError;

    public bool Measuring { get => _measuring; set => _measuring = value; }

    public void Record(long startTimestamp)
    {
        if (!_measuring)
        {
            return;
        }

        var ms = Stopwatch.GetElapsedTime(startTimestamp).TotalMilliseconds;
        Interlocked.Increment(ref _count);
        Interlocked.Increment(ref _buckets[Math.Min((long)(ms / BucketMs), _buckets.Length - 1)]);
    }

    public void Error(Exception ex)
    {
        Interlocked.Increment(ref _errors);
        Interlocked.CompareExchange(ref _firstError, ex.GetType().Name + ": " + ex.Message, null);
    }

    /// <summary>The round-trip time at quantile <paramref name="q"/> of the window's round trips, in milliseconds.</summary>
    public double? Quantile(double q)
    {
        var rank = (long)Math.Ceiling(q * Count);
        long seen = 0;
        for (var i = 0; i < _buckets.Length && rank > 0; i++)
        {
            seen += _buckets[i];
            if (seen >= rank)
            {
                return Math.Round((i + 1) * BucketMs, 3);
            }
        }

        return null;
    }
}
