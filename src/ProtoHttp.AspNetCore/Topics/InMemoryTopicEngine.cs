using Microsoft.Extensions.Options;

namespace ProtoHttp.AspNetCore.Topics;

/// <summary>
/// The engine when none is configured: each topic's log in this process's memory, its positions <c>{n}-0</c>,
/// bounded by <see cref="ProtoTopicOptions.InMemoryMaxLength"/>. One instance only: nothing leaves the process, and the
/// log is gone when it stops.
/// </summary>
internal sealed class InMemoryTopicEngine(IOptions<ProtoTopicOptions> options) : ITopicEngine
{
    private readonly Dictionary<string, Log> _logs = new(StringComparer.Ordinal);

    public Task<TopicPosition> AppendAsync(string topic, ReadOnlyMemory<byte> payload, CancellationToken cancellationToken)
    {
        var log = LogOf(topic);
        TopicPosition position;
        Action[] watchers;
        lock (log)
        {
            position = new TopicPosition(++log.Last, 0);
            log.Entries.Enqueue(new TopicEntry(position, payload.ToArray()));
            while (log.Entries.Count > Math.Max(1, options.Value.InMemoryMaxLength))
            {
                log.Trimmed = log.Entries.Dequeue().Position;
            }

            watchers = [.. log.Watchers];
        }

        foreach (var watcher in watchers)
        {
            watcher();
        }

        return Task.FromResult(position);
    }

    public Task<TopicPage> ReadAsync(string topic, TopicPosition after, int maxCount, CancellationToken cancellationToken)
    {
        var log = LogOf(topic);
        lock (log)
        {
            var entries = log.Entries.Where(e => e.Position > after).Take(maxCount).ToArray();
            return Task.FromResult(new TopicPage(entries, after < log.Trimmed));
        }
    }

    public Task<TopicPosition> TailAsync(string topic, CancellationToken cancellationToken)
    {
        var log = LogOf(topic);
        lock (log)
        {
            return Task.FromResult(new TopicPosition(log.Last, 0));
        }
    }

    public IDisposable Watch(string topic, Action appended)
    {
        var log = LogOf(topic);
        lock (log)
        {
            log.Watchers.Add(appended);
        }

        return new Unwatch(log, appended);
    }

    private Log LogOf(string topic)
    {
        lock (_logs)
        {
            if (!_logs.TryGetValue(topic, out var log))
            {
                _logs[topic] = log = new Log();
            }

            return log;
        }
    }

    private sealed class Log
    {
        public Queue<TopicEntry> Entries { get; } = new();

        public List<Action> Watchers { get; } = [];

        public ulong Last { get; set; }

        /// <summary>The newest position no longer kept.</summary>
        public TopicPosition Trimmed { get; set; }
    }

    private sealed class Unwatch(Log log, Action appended) : IDisposable
    {
        public void Dispose()
        {
            lock (log)
            {
                log.Watchers.Remove(appended);
            }
        }
    }
}
