using System.Diagnostics;
using System.Diagnostics.Metrics;
using Microsoft.Extensions.Logging;
using Microsoft.Extensions.Options;

namespace ProtoHttp.AspNetCore.Topics;

/// <summary>
/// Whether this instance reaches its topic engine: the first failure of an outage is logged (once, however many reads
/// and publishes retry meanwhile) and counted in <c>protohttp.topic.engine.outages</c>; the first success after it
/// logs how long it lasted.
/// </summary>
internal sealed class EngineHealth
{
    private static readonly Meter Meter = new(ProtoHttpInstrumentation.MeterName);

    private static readonly Counter<long> Outages = Meter.CreateCounter<long>(
        "protohttp.topic.engine.outages", unit: "{outage}", description: "Times this instance lost its topic engine.");

    private readonly ILogger _logger;
    private readonly string _engine;
    private readonly TimeSpan _publishTimeout;
    // An engine coming back may fail again for a moment (a server that accepts connections before its storage is
    // ready): a failure this soon after it came back is the same outage, not a new line.
    private static readonly TimeSpan SameOutage = TimeSpan.FromSeconds(10);

    private long _downSince; // Stopwatch timestamp; 0 while the engine answers.
    private long _backSince; // Stopwatch timestamp of the last recovery; 0 before any.
    private volatile bool _relapsed;

    public EngineHealth(ITopicEngine engine, IOptions<ProtoTopicOptions> options, ILoggerFactory loggerFactory)
    {
        _logger = loggerFactory.CreateLogger("ProtoHttp.AspNetCore.Topics");
        _engine = engine.GetType().Name;
        _publishTimeout = options.Value.PublishTimeout;
    }

    public void Failed(Exception exception)
    {
        if (Interlocked.CompareExchange(ref _downSince, Stopwatch.GetTimestamp(), 0) == 0)
        {
            if (Interlocked.Read(ref _backSince) is var back and not 0 && Stopwatch.GetElapsedTime(back) < SameOutage)
            {
                _relapsed = true;
                return;
            }

            Outages.Add(1);
            TopicLog.EngineDown(_logger, _engine, exception.Message, _publishTimeout, exception);
        }
    }

    public void Answered()
    {
        if (Interlocked.Read(ref _downSince) is var since and not 0 && Interlocked.CompareExchange(ref _downSince, 0, since) == since)
        {
            Interlocked.Exchange(ref _backSince, Stopwatch.GetTimestamp());
            if (_relapsed)
            {
                _relapsed = false;
                return;
            }

            TopicLog.EngineBack(_logger, _engine, Stopwatch.GetElapsedTime(since));
        }
    }
}
