using System.Collections.Concurrent;
using System.Globalization;

namespace ProtoHttp.FunctionalTests.Hardening;

/// <summary>What one format's cases were answered: counts by status, and every answer that breaks the rules.</summary>
public sealed class FuzzReport(string format)
{
    private readonly ConcurrentDictionary<int, int> _byStatus = new();
    private readonly ConcurrentQueue<string> _failures = new();
    private int _cases;
    private int _serviceFailures;

    public string Format => format;

    public int Cases => _cases;

    /// <summary>500s from the sample's Search on a blank query: the service's own deliberate failure on well-formed input.</summary>
    public int ServiceFailures => _serviceFailures;

    public IReadOnlyCollection<string> Failures => _failures;

    public void Count(int status)
    {
        Interlocked.Increment(ref _cases);
        _byStatus.AddOrUpdate(status, 1, (_, n) => n + 1);
    }

    public void CountServiceFailure() => Interlocked.Increment(ref _serviceFailures);

    public void Fail(string failure) => _failures.Enqueue(failure);

    public override string ToString()
    {
        var statuses = string.Join(", ", _byStatus.OrderBy(s => s.Key).Select(s => string.Create(CultureInfo.InvariantCulture, $"{s.Key}: {s.Value}")));
        var service = _serviceFailures > 0 ? $" (of the 500s, {_serviceFailures} are the sample's deliberate failure on a blank query)" : "";
        return $"{format}: {_cases} cases; {statuses}{service}; {_failures.Count} failures";
    }
}
