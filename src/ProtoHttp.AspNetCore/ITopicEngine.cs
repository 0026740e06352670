namespace ProtoHttp.AspNetCore;

/// <summary>
/// The seam between ProtoHttp's topics and the engine that keeps their logs and carries them between instances
/// (Redis Streams in <c>ProtoHttp.AspNetCore.Redis</c>, NATS JetStream, or one process's memory by default). An
/// engine keeps, per topic, an ordered log of messages bounded by its own retention; it never sees a subscriber: each
/// instance reads each new message once and fans it out in process (docs/protocol.md, "Topics: streams that resume").
/// </summary>
/// <remarks>
/// Methods throw when the engine cannot be reached; ProtoHttp retries reads and bounds the wait of a publish
/// (<see cref="ProtoTopicOptions.PublishTimeout"/>). Registered as a singleton: the last registration wins.
/// </remarks>
public interface ITopicEngine
{
    /// <summary>
    /// Appends a message to the topic's log and returns its position, after every earlier one's. An engine may try
    /// again, until <paramref name="cancellationToken"/> ends, what it knows never reached the engine; never what may
    /// have been appended, so that a failed publish is not delivered later, nor twice.
    /// </summary>
    /// <param name="topic">The topic's name.</param>
    /// <param name="payload">The message serialized as protobuf.</param>
    /// <param name="cancellationToken">Ends the wait: the publish timeout, or the caller's token.</param>
    Task<TopicPosition> AppendAsync(string topic, ReadOnlyMemory<byte> payload, CancellationToken cancellationToken);

    /// <summary>Reads at most <paramref name="maxCount"/> entries after <paramref name="after"/>, oldest first.</summary>
    /// <param name="topic">The topic's name.</param>
    /// <param name="after">The position to read after (<see cref="TopicPosition.Start"/> for the whole log).</param>
    /// <param name="maxCount">The most entries to return.</param>
    /// <param name="cancellationToken">Ends the wait.</param>
    Task<TopicPage> ReadAsync(string topic, TopicPosition after, int maxCount, CancellationToken cancellationToken);

    /// <summary>The position of the topic's newest message; <see cref="TopicPosition.Start"/> when it has none.</summary>
    /// <param name="topic">The topic's name.</param>
    /// <param name="cancellationToken">Ends the wait.</param>
    Task<TopicPosition> TailAsync(string topic, CancellationToken cancellationToken);

    /// <summary>
    /// Calls <paramref name="appended"/> soon after any instance appends to the topic, so that this instance reads at
    /// once rather than at its next poll. A hint only: one may be lost (while the engine is away), so ProtoHttp also
    /// polls (<see cref="ProtoTopicOptions.PollInterval"/>).
    /// </summary>
    /// <param name="topic">The topic's name.</param>
    /// <param name="appended">Called with no lock held, from any thread.</param>
    /// <returns>Stops the calls when disposed.</returns>
    IDisposable Watch(string topic, Action appended);
}
