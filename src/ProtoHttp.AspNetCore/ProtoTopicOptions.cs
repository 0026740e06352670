namespace ProtoHttp.AspNetCore;

/// <summary>How topics deliver, wait and remember (<c>AddProtoHttp().AddTopics(options =&gt; …)</c>).</summary>
public sealed class ProtoTopicOptions
{
    /// <summary>How long a publish waits for an unreachable engine before it fails to its caller. Default 5 seconds.</summary>
    public TimeSpan PublishTimeout { get; set; } = TimeSpan.FromSeconds(5);

    /// <summary>
    /// How often each instance reads a topic's log even without a hint from the engine, and how long it waits between
    /// tries while the engine cannot be reached. Default 1 second.
    /// </summary>
    public TimeSpan PollInterval { get; set; } = TimeSpan.FromSeconds(1);

    /// <summary>
    /// How many messages a subscriber may be behind the live feed before it leaves it and catches up from the log
    /// instead (a slow reader costs the engine reads, never the other subscribers or unbounded memory). Default 256.
    /// </summary>
    public int SubscriberBuffer { get; set; } = 256;

    /// <summary>How many entries one read of the log returns at most. Default 256.</summary>
    public int ReadBatch { get; set; } = 256;

    /// <summary>How many messages a topic's log keeps in the in-memory engine (the default, one instance). Default 10,000.</summary>
    public int InMemoryMaxLength { get; set; } = 10_000;
}
