using System.Collections.Concurrent;
using Microsoft.Extensions.Options;
using NATS.Client.Core;
using NATS.Client.JetStream;
using NATS.Client.JetStream.Models;

namespace ProtoHttp.AspNetCore.Nats;

/// <summary>
/// Topics in NATS JetStream: one file-backed stream per topic, bounded by length and/or age; positions are the stream's
/// sequence numbers (<c>{seq}-0</c>), contiguous, so a reader after a trimmed one is told so for certain. Every
/// JetStream publish is also a plain message on the topic's subject, which is the hint each instance listens to. The
/// connection reconnects by itself; while NATS cannot be reached every call throws, and ProtoHttp retries reads and
/// bounds publishes (docs/deploy.md, "NATS JetStream").
/// </summary>
internal sealed class NatsTopicEngine : ITopicEngine, IAsyncDisposable
{
    private readonly NatsBackplaneOptions _options;
    private readonly NatsConnection _connection;
    private readonly NatsJSContext _jetStream;
    private readonly ConcurrentDictionary<string, Lazy<Task>> _streams = new(StringComparer.Ordinal);

    public NatsTopicEngine(IOptions<NatsBackplaneOptions> options)
    {
        _options = options.Value;
        _connection = new NatsConnection(new NatsOpts { Url = _options.Url, Name = "protohttp-topics" });
        _jetStream = new NatsJSContext(_connection);
    }

    public async Task<TopicPosition> AppendAsync(string topic, ReadOnlyMemory<byte> payload, CancellationToken cancellationToken)
    {
        await EnsureStreamAsync(topic, cancellationToken);
        var ack = await _jetStream.PublishAsync(Subject(topic), payload.ToArray(), cancellationToken: cancellationToken);
        ack.EnsureSuccess();
        return new TopicPosition(ack.Seq, 0);
    }

    public async Task<TopicPage> ReadAsync(string topic, TopicPosition after, int maxCount, CancellationToken cancellationToken)
    {
        await EnsureStreamAsync(topic, cancellationToken);
        var stream = await _jetStream.GetStreamAsync(StreamName(topic), cancellationToken: cancellationToken);
        var state = stream.Info.State;
        // Sequences are contiguous: anything between the one asked after and the first kept was trimmed.
        var truncated = after.Major + 1 < state.FirstSeq;
        var first = Math.Max(after.Major + 1, state.FirstSeq);
        var entries = new List<TopicEntry>();
        for (var sequence = first; sequence <= state.LastSeq && entries.Count < maxCount; sequence++)
        {
            var message = await stream.GetAsync(new StreamMsgGetRequest { Seq = sequence }, cancellationToken);
            entries.Add(new TopicEntry(new TopicPosition(sequence, 0), message.Message.Data.ToArray()));
        }

        return new TopicPage(entries, truncated);
    }

    public async Task<TopicPosition> TailAsync(string topic, CancellationToken cancellationToken)
    {
        await EnsureStreamAsync(topic, cancellationToken);
        var stream = await _jetStream.GetStreamAsync(StreamName(topic), cancellationToken: cancellationToken);
        return new TopicPosition(stream.Info.State.LastSeq, 0);
    }

    public IDisposable Watch(string topic, Action appended)
    {
        var stop = new CancellationTokenSource();
        _ = WatchAsync(Subject(topic), appended, stop.Token);
        return stop;
    }

    public async ValueTask DisposeAsync() => await _connection.DisposeAsync();

    private async Task WatchAsync(string subject, Action appended, CancellationToken cancellationToken)
    {
        while (!cancellationToken.IsCancellationRequested)
        {
            try
            {
                // The client subscribes again by itself after a reconnect; a hint lost meanwhile is the poll's.
                await foreach (var _ in _connection.SubscribeAsync<byte[]>(subject, cancellationToken: cancellationToken))
                {
                    appended();
                }
            }
            catch (OperationCanceledException) when (cancellationToken.IsCancellationRequested)
            {
                return;
            }
            catch (NatsException)
            {
                await Task.Delay(TimeSpan.FromSeconds(1), cancellationToken).ConfigureAwait(ConfigureAwaitOptions.SuppressThrowing);
            }
        }
    }

    /// <summary>Makes the topic's stream once per process (again after a failure), with the configured bounds.</summary>
    private Task EnsureStreamAsync(string topic, CancellationToken cancellationToken)
    {
        var made = _streams.GetOrAdd(topic, t => new Lazy<Task>(() => CreateStreamAsync(t)));
        if (made.Value.IsFaulted || made.Value.IsCanceled)
        {
            _streams.TryRemove(new KeyValuePair<string, Lazy<Task>>(topic, made));
            made = _streams.GetOrAdd(topic, t => new Lazy<Task>(() => CreateStreamAsync(t)));
        }

        return made.Value.WaitAsync(cancellationToken);
    }

    private async Task CreateStreamAsync(string topic)
    {
        var config = new StreamConfig(StreamName(topic), [Subject(topic)]) { Storage = StreamConfigStorage.File };
        if (_options.MaxLength is { } maxLength)
        {
            config.MaxMsgs = maxLength;
        }

        if (_options.MaxAge is { } maxAge)
        {
            config.MaxAge = maxAge;
        }

        await _jetStream.CreateOrUpdateStreamAsync(config);
    }

    private string StreamName(string topic) => $"{_options.Prefix}_{Convert.ToHexString(System.Text.Encoding.UTF8.GetBytes(topic))}";

    private string Subject(string topic) => $"{_options.Prefix}.topics.{topic}";
}
