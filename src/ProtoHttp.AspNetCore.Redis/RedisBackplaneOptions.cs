namespace ProtoHttp.AspNetCore.Redis;

/// <summary>How topics are kept in Redis (<c>AddRedisBackplane("host:port", options =&gt; …)</c>).</summary>
public sealed class RedisBackplaneOptions
{
    /// <summary>
    /// The StackExchange.Redis configuration string: <c>host:port</c>, then <c>,password=…</c>, <c>,ssl=true</c> and
    /// the like.
    /// </summary>
    public string Configuration { get; set; } = "";

    /// <summary>What every key and channel begins with. Default <c>protohttp:</c>: topic <c>prices</c> is the stream <c>protohttp:{prices}</c>.</summary>
    public string KeyPrefix { get; set; } = "protohttp:";

    /// <summary>How many messages each topic's stream keeps; <see langword="null"/>: no bound by length. Default 10,000.</summary>
    public long? MaxLength { get; set; } = 10_000;

    /// <summary>How long each topic's stream keeps a message; <see langword="null"/> (the default): no bound by age.</summary>
    public TimeSpan? MaxAge { get; set; }
}
