using System.Collections.Concurrent;
using Microsoft.Extensions.Options;
using StackExchange.Redis;

namespace ProtoHttp.AspNetCore.Redis;

/// <summary>
/// Topics in Redis Streams: one stream per topic, positions are the stream's own entry ids, so any instance resumes
/// any subscriber (docs/deploy.md, "Redis"). Each append runs one script (add, trim by length or age, hint on the
/// topic's channel); each instance's one reader per topic reads the entries after the last it delivered when the hint
/// comes, or at the poll interval. The connection reconnects by itself; while Redis cannot be reached every call
/// throws or times out, and ProtoHttp retries reads and bounds publishes.
/// </summary>
internal sealed class RedisTopicEngine : ITopicEngine, IAsyncDisposable
{
    private static readonly TimeSpan RetryDelay = TimeSpan.FromMilliseconds(100);

    private readonly RedisBackplaneOptions _options;
    private readonly TimeSpan _publishTimeout;
    private readonly Lazy<Task<ConnectionMultiplexer>> _connection;
    private readonly ConcurrentDictionary<string, RedisTopicKeys> _keys = new(StringComparer.Ordinal);
    private readonly ConcurrentDictionary<Action, byte> _watchers = new();

    public RedisTopicEngine(IOptions<RedisBackplaneOptions> options, IOptions<ProtoTopicOptions> topicOptions)
    {
        _options = options.Value;
        _publishTimeout = topicOptions.Value.PublishTimeout;
        var configuration = RedisConfiguration.Parse(_options.Configuration);
        _connection = new(() => ConnectAsync(configuration));
    }

    public async Task<TopicPosition> AppendAsync(string topic, ReadOnlyMemory<byte> payload, CancellationToken cancellationToken)
    {
        var keys = KeysOf(topic);
        // Redis refuses the append after this (up to the clocks' skew): no publish is appended after its caller was told it failed.
        var deadline = DateTimeOffset.UtcNow.Add(_publishTimeout).ToUnixTimeMilliseconds();
        var database = (await _connection.Value).GetDatabase();
        while (true)
        {
            try
            {
                var id = await database.ScriptEvaluateAsync(
                    RedisScripts.Append,
                    [keys.Stream, keys.Trimmed],
                    [payload, _options.MaxLength ?? 0, (long)(_options.MaxAge?.TotalMilliseconds ?? 0), keys.Appended.ToString(), deadline]);
                return Position((string?)id);
            }
            catch (RedisConnectionException e) when (e.CommandStatus == CommandStatus.WaitingToBeSent && !cancellationToken.IsCancellationRequested)
            {
                // Never sent (the connection is down and commands fail fast): trying again cannot append it twice. A
                // command that was sent is not tried again: it may have run, and the caller hears of the failure.
                await Task.Delay(RetryDelay, cancellationToken);
            }
        }
    }

    public async Task<TopicPage> ReadAsync(string topic, TopicPosition after, int maxCount, CancellationToken cancellationToken)
    {
        if (after.Major == ulong.MaxValue && after.Minor == ulong.MaxValue)
        {
            return new TopicPage([], false); // Nothing can follow it; Redis would refuse the range.
        }

        var keys = KeysOf(topic);
        var database = (await _connection.Value).GetDatabase();
        var result = (RedisResult[])(await database.ScriptEvaluateAsync(RedisScripts.Read, [keys.Stream, keys.Trimmed], [after.ToString(), maxCount]))!;
        var trimmed = Position((string?)result[0]);
        var rows = (RedisResult[])result[1]!;
        var entries = new TopicEntry[rows.Length];
        for (var i = 0; i < rows.Length; i++)
        {
            var row = (RedisResult[])rows[i]!;
            var fields = (RedisResult[])row[1]!;
            entries[i] = new TopicEntry(Position((string?)row[0]), (byte[])fields[1]!);
        }

        return new TopicPage(entries, after < trimmed);
    }

    public async Task<TopicPosition> TailAsync(string topic, CancellationToken cancellationToken)
    {
        var keys = KeysOf(topic);
        var database = (await _connection.Value).GetDatabase();
        return Position((string?)await database.ScriptEvaluateAsync(RedisScripts.Tail, [keys.Stream, keys.Trimmed]));
    }

    public IDisposable Watch(string topic, Action appended)
    {
        var channel = KeysOf(topic).Appended;
        Action<RedisChannel, RedisValue> handler = (_, _) => appended();
        _watchers.TryAdd(appended, 0);
        _ = SubscribeAsync(channel, handler);
        return new Unwatch(this, channel, handler, appended);
    }

    public async ValueTask DisposeAsync()
    {
        if (_connection.IsValueCreated)
        {
            await (await _connection.Value).DisposeAsync();
        }
    }

    private static TopicPosition Position(string? id) =>
        TopicPosition.TryParse(id, out var position) ? position : throw new RedisException($"Redis answered '{id}' where a stream id was expected.");

    private async Task<ConnectionMultiplexer> ConnectAsync(ConfigurationOptions configuration)
    {
        var connection = await ConnectionMultiplexer.ConnectAsync(configuration);
        // A hint published while this instance was cut off never comes: read every topic at once when Redis is back.
        connection.ConnectionRestored += (_, _) =>
        {
            foreach (var watcher in _watchers.Keys)
            {
                watcher();
            }
        };
        return connection;
    }

    private async Task SubscribeAsync(RedisChannel channel, Action<RedisChannel, RedisValue> handler)
    {
        try
        {
            await (await _connection.Value).GetSubscriber().SubscribeAsync(channel, handler);
        }
        catch (RedisException)
        {
            // Redis is away: the reader polls meanwhile, and the multiplexer subscribes again when it reconnects.
        }
    }

    private RedisTopicKeys KeysOf(string topic) => _keys.GetOrAdd(topic, static (topic, prefix) => new RedisTopicKeys(prefix, topic), _options.KeyPrefix);

    private sealed class Unwatch(RedisTopicEngine engine, RedisChannel channel, Action<RedisChannel, RedisValue> handler, Action appended) : IDisposable
    {
        public void Dispose()
        {
            engine._watchers.TryRemove(appended, out _);
            if (engine._connection.IsValueCreated && engine._connection.Value.IsCompletedSuccessfully)
            {
                engine._connection.Value.Result.GetSubscriber().Unsubscribe(channel, handler, CommandFlags.FireAndForget);
            }
        }
    }
}
