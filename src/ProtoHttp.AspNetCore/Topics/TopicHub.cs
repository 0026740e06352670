using Google.Protobuf;
using Microsoft.Extensions.Logging;

namespace ProtoHttp.AspNetCore.Topics;

/// <summary>
/// One topic on this instance: the one reader of its log, which reads each new message once (woken by the engine's
/// hint, or at the poll interval), parses it once, and hands the same <see cref="BroadcastMessage{T}"/> to every
/// subscriber, so each framing is serialized once per instance per message (docs/protocol.md, "Topics: streams that
/// resume"). While the engine cannot be reached it tries again at the poll interval; when the engine is back it reads
/// on from the last position it delivered, so nothing published meanwhile is skipped.
/// </summary>
internal sealed class TopicHub<T> : ITopicHub
    where T : class, IMessage<T>, new()
{
    private readonly ITopicEngine _engine;
    private readonly EngineHealth _health;
    private readonly ProtoTopicOptions _options;
    private readonly SemaphoreSlim _wake = new(0, 1);
    private readonly CancellationTokenSource _stop = new();
    private readonly TaskCompletionSource _tailKnown = new(TaskCreationOptions.RunContinuationsAsynchronously);
    private readonly Lock _gate = new();
    private TopicSubscriber<T>[] _subscribers = [];
    private TopicPosition _delivered;
    private Task _reading = Task.CompletedTask;

    public TopicHub(string name, ITopicEngine engine, EngineHealth health, ProtoTopicOptions options, ILogger logger)
    {
        Name = name;
        _engine = engine;
        _health = health;
        _options = options;
        Logger = logger;
    }

    public string Name { get; }

    public ILogger Logger { get; }

    public static MessageParser<T> Parser { get; } = new(() => new T());

    public Type MessageType => typeof(T);

    /// <summary>How many subscribers (streams and in-process readers) are on the live feed now.</summary>
    public int SubscriberCount => Volatile.Read(ref _subscribers).Length;

    public void Start() => _reading = Task.Run(ReadAsync);

    /// <summary>Reads the log soon, not at the next poll: something was appended.</summary>
    public void Wake()
    {
        try
        {
            _wake.Release();
        }
        catch (SemaphoreFullException)
        {
            // Already woken: the next read takes everything appended until then.
        }
    }

    /// <summary>
    /// Joins the live feed; returns the subscriber and the position of the last message delivered before it joined:
    /// every later message reaches it.
    /// </summary>
    public async Task<(TopicSubscriber<T> Subscriber, TopicPosition Joined)> JoinAsync(CancellationToken cancellationToken)
    {
        await _tailKnown.Task.WaitAsync(cancellationToken);
        var subscriber = new TopicSubscriber<T>(_options.SubscriberBuffer);
        lock (_gate)
        {
            if (_stop.IsCancellationRequested)
            {
                subscriber.Complete();
            }

            _subscribers = [.. _subscribers, subscriber];
            return (subscriber, _delivered);
        }
    }

    public void Leave(TopicSubscriber<T> subscriber)
    {
        lock (_gate)
        {
            _subscribers = Array.FindAll(_subscribers, s => s != subscriber);
        }
    }

    /// <summary>Reads after <paramref name="after"/>, trying again while the engine cannot be reached.</summary>
    public Task<TopicPage> ReadLogAsync(TopicPosition after, CancellationToken cancellationToken) =>
        UntilAnsweredAsync(token => _engine.ReadAsync(Name, after, _options.ReadBatch, token), cancellationToken);

    /// <summary>The position of the log's newest message, trying again while the engine cannot be reached.</summary>
    public Task<TopicPosition> TailAsync(CancellationToken cancellationToken) =>
        UntilAnsweredAsync(token => _engine.TailAsync(Name, token), cancellationToken);

    /// <summary>The log entry as the message it holds, or <see langword="null"/> (logged) when it holds something else.</summary>
    public BroadcastMessage<T>? Parse(TopicEntry entry)
    {
        try
        {
            return new BroadcastMessage<T>(Parser.ParseFrom(entry.Payload.Span)) { Position = entry.Position };
        }
        catch (InvalidProtocolBufferException e)
        {
            TopicLog.NotAMessage(Logger, Name, entry.Position, typeof(T).Name, e);
            return null;
        }
    }

    /// <summary>Ends every subscription (their streams end as usual) and stops reading: the app is stopping.</summary>
    public void Stop()
    {
        lock (_gate)
        {
            _stop.Cancel();
            foreach (var subscriber in _subscribers)
            {
                subscriber.Complete();
            }
        }
    }

    public async ValueTask DisposeAsync()
    {
        Stop();
        await _reading;
    }

    private async Task ReadAsync()
    {
        var stopping = _stop.Token;
        using var watch = _engine.Watch(Name, Wake);
        try
        {
            _delivered = await TailAsync(stopping);
            _tailKnown.TrySetResult();
            while (!stopping.IsCancellationRequested)
            {
                var page = await ReadLogAsync(_delivered, stopping);
                if (page.Truncated && page.Entries.Count > 0)
                {
                    TopicLog.FellBehind(Logger, Name, _delivered);
                }

                foreach (var entry in page.Entries)
                {
                    Deliver(entry);
                }

                if (page.Entries.Count < _options.ReadBatch)
                {
                    await _wake.WaitAsync(_options.PollInterval, stopping);
                }
            }
        }
        catch (OperationCanceledException) when (stopping.IsCancellationRequested)
        {
            // The app is stopping.
        }
        finally
        {
            // Whoever waits to join now joins a stopped topic, and leaves at once.
            _tailKnown.TrySetResult();
        }
    }

    /// <summary>Asks the engine until it answers: subscribers wait, connected, through an outage.</summary>
    private async Task<TResult> UntilAnsweredAsync<TResult>(Func<CancellationToken, Task<TResult>> ask, CancellationToken cancellationToken)
    {
        while (true)
        {
            try
            {
                var answer = await ask(cancellationToken);
                _health.Answered();
                return answer;
            }
            catch (Exception e) when (!cancellationToken.IsCancellationRequested)
            {
                _health.Failed(e);
                await Task.Delay(_options.PollInterval, cancellationToken);
            }
        }
    }

    private void Deliver(TopicEntry entry)
    {
        var message = Parse(entry);
        lock (_gate)
        {
            _delivered = entry.Position;
            if (message is null)
            {
                return;
            }

            foreach (var subscriber in _subscribers)
            {
                subscriber.Offer(message);
            }
        }
    }
}
