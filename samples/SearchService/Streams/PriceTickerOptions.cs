namespace SearchService.Streams;

/// <summary>The sample's price ticker (configuration section <c>PriceTicker</c>).</summary>
public sealed class PriceTickerOptions
{
    /// <summary>The time between two ticks. Default one second.</summary>
    public TimeSpan Interval { get; set; } = TimeSpan.FromSeconds(1);

    /// <summary>
    /// A StackExchange.Redis configuration string (<c>localhost:6379</c>, <c>redis:6379,password=…</c>) that puts the
    /// price feed's topic in Redis (<c>AddRedisBackplane</c>), so every instance's subscribers get every instance's
    /// ticks and a stream resumes on any instance; empty (the default) keeps the feed inside this instance. See docs/deploy.md.
    /// </summary>
    public string? Redis { get; set; }

    /// <summary>
    /// A NATS URL (<c>nats://localhost:4222</c>) that puts the price feed's topic in NATS JetStream instead
    /// (<c>AddNatsBackplane</c>); empty (the default): not. See docs/deploy.md.
    /// </summary>
    public string? Nats { get; set; }
}
