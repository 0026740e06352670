namespace SearchService.Streams;

/// <summary>How often the sample's one price ticker publishes (configuration section <c>PriceTicker</c>).</summary>
public sealed class PriceTickerOptions
{
    /// <summary>The time between two ticks. Default one second.</summary>
    public TimeSpan Interval { get; set; } = TimeSpan.FromSeconds(1);
}
