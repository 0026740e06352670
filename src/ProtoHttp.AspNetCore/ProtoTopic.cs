using System.Runtime.CompilerServices;
using System.Threading.Channels;
using Google.Protobuf;
using Grpc.Core;
using ProtoHttp.AspNetCore.Framing;
using ProtoHttp.AspNetCore.Topics;

namespace ProtoHttp.AspNetCore;

/// <summary>
/// A named, ordered feed of <typeparamref name="T"/> messages shared by every instance of the app
/// (<see cref="IProtoTopics.Topic{T}(string)"/>): <see cref="PublishAsync"/> appends a message to the engine's log;
/// <see cref="SubscribeAsync"/> writes the feed to a server stream until the call ends, each message with its
/// position, and resumes after the request's <c>Last-Event-ID</c> when it has one (docs/protocol.md, "Topics: streams
/// that resume").
/// </summary>
/// <typeparam name="T">The message type.</typeparam>
public sealed class ProtoTopic<T> : ITopicHubOwner
    where T : class, IMessage<T>, new()
{
    private readonly TopicHub<T> _hub;
    private readonly ITopicEngine _engine;
    private readonly EngineHealth _health;
    private readonly ProtoTopicOptions _options;

    internal ProtoTopic(TopicHub<T> hub, ITopicEngine engine, EngineHealth health, ProtoTopicOptions options)
    {
        _hub = hub;
        _engine = engine;
        _health = health;
        _options = options;
    }

    /// <summary>The topic's name.</summary>
    public string Name => _hub.Name;

    ITopicHub ITopicHubOwner.Hub => _hub;

    /// <summary>How many subscribers this instance has on the live feed now (for tests).</summary>
    internal int SubscriberCount => _hub.SubscriberCount;

    /// <summary>
    /// Appends <paramref name="message"/> to the topic: every subscriber of every instance gets it once, after every
    /// message appended before it. Waits at most <see cref="ProtoTopicOptions.PublishTimeout"/> for the engine.
    /// </summary>
    /// <param name="message">The message; it is serialized at once, so it may change afterwards.</param>
    /// <param name="cancellationToken">Ends the wait; the message may still be appended.</param>
    /// <returns>The message's position, the id its events carry.</returns>
    /// <exception cref="RpcException">
    /// <c>UNAVAILABLE</c>: the engine did not take the message in time. It was not delivered to anyone unless the
    /// engine took it later, in which case every subscriber gets it as any other.
    /// </exception>
    public async Task<TopicPosition> PublishAsync(T message, CancellationToken cancellationToken = default)
    {
        ArgumentNullException.ThrowIfNull(message);
        var payload = message.ToByteArray();
        using var timeout = CancellationTokenSource.CreateLinkedTokenSource(cancellationToken);
        timeout.CancelAfter(_options.PublishTimeout);
        try
        {
            // The token bounds an engine's own retries; the wait bounds an engine that does not listen to it.
            var position = await _engine.AppendAsync(Name, payload, timeout.Token).WaitAsync(_options.PublishTimeout, cancellationToken);
            _health.Answered();
            // No wake of this instance's reader here: the engine's hint wakes every instance's, this one's too, and a
            // second wake would read the log twice for one message (docs/protocol.md, "Topics: streams that resume").
            return position;
        }
        catch (Exception e) when (e is not OperationCanceledException || !cancellationToken.IsCancellationRequested)
        {
            _health.Failed(e);
            throw new RpcException(new Status(StatusCode.Unavailable, $"The topic '{Name}' could not be published to: {e.Message}", e));
        }
    }

    /// <summary>
    /// Writes the topic to <paramref name="stream"/> until <paramref name="context"/>'s call ends: first, when the
    /// request has <c>Last-Event-ID</c>, every message after it still in the log, at once (a gap notice first when some
    /// are no longer kept, or where the framing has none, the call's end with <c>OUT_OF_RANGE</c>); then each message
    /// as it is published. None is skipped, none written twice.
    /// </summary>
    /// <param name="stream">The server stream of the call.</param>
    /// <param name="context">The call: its <c>Last-Event-ID</c> header and its cancellation.</param>
    /// <param name="filter">Which messages this subscriber wants; <see langword="null"/>: all.</param>
    /// <exception cref="RpcException"><c>INVALID_ARGUMENT</c>: <c>Last-Event-ID</c> is not an event id.</exception>
    /// <exception cref="RpcException"><c>UNAVAILABLE</c>: the app is stopping; the client resumes on another instance.</exception>
    /// <exception cref="RpcException">
    /// <c>OUT_OF_RANGE</c>: messages after <c>Last-Event-ID</c> are no longer kept, and the stream's framing (Connect
    /// envelopes, gRPC) has no notice for it.
    /// </exception>
    public async Task SubscribeAsync(IServerStreamWriter<T> stream, ServerCallContext context, Func<T, bool>? filter = null)
    {
        ArgumentNullException.ThrowIfNull(stream);
        ArgumentNullException.ThrowIfNull(context);
        var resumeAfter = LastEventId.Read(context);
        await RunAsync(
            resumeAfter,
            (message, token) => filter is null || filter(message.Message) ? stream.WriteAsync(message, token) : Task.CompletedTask,
            (after, token) => SayGapAsync(stream, after, token),
            context.CancellationToken);

        // The feed ended without the client leaving: this instance is stopping. As a gRPC server says as it shuts down;
        // an EventSource reconnects by itself, the typed client resumes, each with the last id it got.
        throw new RpcException(new Status(StatusCode.Unavailable, "This instance is stopping; resume on another with Last-Event-ID."));
    }

    /// <summary>
    /// Says in <paramref name="stream"/> that messages after <paramref name="after"/> are gone: a notice the stream goes
    /// on after (SSE, NDJSON), or, in a framing that has none (Connect envelopes, gRPC), the call's end with
    /// <c>OUT_OF_RANGE</c> (docs/protocol.md, "Topics: streams that resume").
    /// </summary>
    private async Task SayGapAsync(IServerStreamWriter<T> stream, TopicPosition after, CancellationToken cancellationToken)
    {
        if (stream is ResponseStreamWriter<T> ours && await ours.WriteGapAsync(after, cancellationToken))
        {
            return;
        }

        throw new RpcException(new Status(StatusCode.OutOfRange,
            $"The topic '{Name}' no longer keeps every message after the {LastEventId.HeaderName} {after}: they cannot be replayed. Subscribe again without {LastEventId.HeaderName} to go on from now."));
    }

    /// <summary>
    /// The topic's messages in this process, as a subscriber gets them: each message published from now on (from
    /// every instance), in the topic's order, until <paramref name="cancellationToken"/> ends the enumeration.
    /// </summary>
    /// <param name="cancellationToken">Ends the enumeration.</param>
    /// <returns>The messages; each is shared with every other reader of the topic: it must not change.</returns>
    public async IAsyncEnumerable<T> ReadAllAsync([EnumeratorCancellation] CancellationToken cancellationToken = default)
    {
        var handOver = Channel.CreateBounded<T>(new BoundedChannelOptions(1) { SingleReader = true, SingleWriter = true });
        using var stop = CancellationTokenSource.CreateLinkedTokenSource(cancellationToken);
        var reading = RunAsync(null, (message, token) => handOver.Writer.WriteAsync(message.Message, token).AsTask(), static (_, _) => Task.CompletedTask, stop.Token)
            .ContinueWith(run => handOver.Writer.TryComplete(run.IsFaulted ? run.Exception.InnerException : null), TaskScheduler.Default);
        try
        {
            await foreach (var message in handOver.Reader.ReadAllAsync(cancellationToken))
            {
                yield return message;
            }
        }
        finally
        {
            await stop.CancelAsync();
            await reading;
        }
    }

    /// <summary>
    /// Hands the topic to <paramref name="write"/> until <paramref name="cancellationToken"/> ends: after
    /// <paramref name="resumeAfter"/> from the log first, when it is set, then live. None is skipped, none written twice.
    /// </summary>
    private async Task RunAsync(
        TopicPosition? resumeAfter, Func<BroadcastMessage<T>, CancellationToken, Task> write, Func<TopicPosition, CancellationToken, Task> sayGap, CancellationToken cancellationToken)
    {
        while (true)
        {
            var (subscriber, joined) = await _hub.JoinAsync(cancellationToken);
            try
            {
                // Joined before the log is read: whatever the log read does not reach, the live feed has; what both
                // have is told apart by position.
                var position = joined;
                if (resumeAfter is { } after)
                {
                    position = after > joined && after > await _hub.TailAsync(cancellationToken)
                        ? await SayGapAsync(sayGap, after, joined, cancellationToken) // An id this log never had (it was lost, or is another's).
                        : await ReplayAsync(write, sayGap, after, cancellationToken);
                }

                await foreach (var message in subscriber.Messages.ReadAllAsync(cancellationToken))
                {
                    if (message.Position <= position)
                    {
                        continue;
                    }

                    await write(message, cancellationToken);
                    position = message.Position!.Value;
                }

                if (!subscriber.Overflowed)
                {
                    return; // The app is stopping.
                }

                resumeAfter = position;
            }
            finally
            {
                _hub.Leave(subscriber);
            }
        }
    }

    private async Task<TopicPosition> ReplayAsync(
        Func<BroadcastMessage<T>, CancellationToken, Task> write, Func<TopicPosition, CancellationToken, Task> sayGap, TopicPosition after, CancellationToken cancellationToken)
    {
        var position = after;
        var first = true;
        while (true)
        {
            var page = await _hub.ReadLogAsync(position, cancellationToken);
            if (first && page.Truncated)
            {
                await SayGapAsync(sayGap, after, after, cancellationToken);
            }

            first = false;
            foreach (var entry in page.Entries)
            {
                if (_hub.Parse(entry) is { } message)
                {
                    await write(message, cancellationToken);
                }

                position = entry.Position;
            }

            if (page.Entries.Count < _options.ReadBatch)
            {
                return position;
            }
        }
    }

    /// <summary>Tells the subscriber that what follows <paramref name="after"/> cannot all be given; returns where it goes on from.</summary>
    private async Task<TopicPosition> SayGapAsync(
        Func<TopicPosition, CancellationToken, Task> sayGap, TopicPosition after, TopicPosition goesOnFrom, CancellationToken cancellationToken)
    {
        TopicLog.ResumedPastLog(_hub.Logger, Name, after);
        await sayGap(after, cancellationToken);
        return goesOnFrom;
    }
}
