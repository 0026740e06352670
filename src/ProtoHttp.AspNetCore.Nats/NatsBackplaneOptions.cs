namespace ProtoHttp.AspNetCore.Nats;

/// <summary>How topics are kept in NATS JetStream (<c>AddNatsBackplane("nats://host:4222", options =&gt; …)</c>).</summary>
public sealed class NatsBackplaneOptions
{
    /// <summary>The NATS server's URL, <c>nats://host:4222</c>; several separated by commas.</summary>
    public string Url { get; set; } = "";

    /// <summary>What every stream name and subject begins with. Default <c>protohttp</c>: topic <c>prices</c> is the stream <c>protohttp_prices</c> on subject <c>protohttp.topics.prices</c>.</summary>
    public string Prefix { get; set; } = "protohttp";

    /// <summary>How many messages each topic's stream keeps; <see langword="null"/>: no bound by length. Default 10,000.</summary>
    public long? MaxLength { get; set; } = 10_000;

    /// <summary>How long each topic's stream keeps a message; <see langword="null"/> (the default): no bound by age.</summary>
    public TimeSpan? MaxAge { get; set; }
}
