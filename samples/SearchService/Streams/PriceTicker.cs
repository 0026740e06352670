using Grpc.Core;
using Microsoft.Extensions.Options;
using Northwind;
using ProtoHttp.AspNetCore;
using SearchService.Catalog;

namespace SearchService.Streams;

/// <summary>
/// The price ticker of the sample: a background loop that moves one product's price at each interval and publishes the
/// tick to the topic <see cref="TopicName"/>, which hands it to every subscriber of every instance (ProtoHttp's topics:
/// docs/protocol.md, "Topics: streams that resume"). Each instance also reads the topic itself and applies every tick
/// to its prices, so all instances quote one walk. With <see cref="PriceTickerOptions.Redis"/> (or
/// <see cref="PriceTickerOptions.Nats"/>) set the topic lives in Redis (or NATS JetStream) and the instances share it;
/// without, it lives in this process.
/// </summary>
public sealed class PriceTicker : BackgroundService
{
    /// <summary>The topic the ticks go to.</summary>
    public const string TopicName = "northwind.prices";

    private readonly (int Id, string Name)[] _products;
    private readonly Dictionary<int, int> _indexById;
    private readonly float[] _prices;
    private readonly TimeSpan _interval;
    private readonly Random _random;
    private long _sequence;

    public PriceTicker(ProductCatalog catalog, NorthwindOrders orders, IOptions<PriceTickerOptions> options, IProtoTopics topics)
    {
        _products = catalog.Products.Select(p => (p.Id, p.Name)).ToArray();
        _indexById = _products.Select((p, index) => (p.Id, index)).ToDictionary(p => p.Id, p => p.index);
        var lastPrices = orders.All.Orders.SelectMany(o => o.Lines).GroupBy(l => l.ProductId).ToDictionary(g => g.Key, g => g.Last().UnitPrice);
        _prices = _products.Select(p => lastPrices.GetValueOrDefault(p.Id, 10f)).ToArray();
        _interval = options.Value.Interval;
        // Instances walking the same way would make ticks that look alike; with a shared feed each walks its own.
        _random = options.Value.Redis is { Length: > 0 } || options.Value.Nats is { Length: > 0 } ? new Random() : new Random(1996); // 1996: the year of the Northwind data.
        Ticks = topics.Topic<PriceTick>(TopicName);
    }

    /// <summary>The feed: every instance's ticks, in one order.</summary>
    public ProtoTopic<PriceTick> Ticks { get; }

    /// <summary>The current price of a product, or <see langword="null"/> for an unknown one.</summary>
    public float? PriceOf(int productId) =>
        _indexById.TryGetValue(productId, out var index) ? Volatile.Read(ref _prices[index]) : null;

    protected override async Task ExecuteAsync(CancellationToken stoppingToken)
    {
        var following = FollowAsync(stoppingToken);
        using var timer = new PeriodicTimer(_interval);
        try
        {
            while (await timer.WaitForNextTickAsync(stoppingToken))
            {
                try
                {
                    await Ticks.PublishAsync(NextTick(), stoppingToken);
                }
                catch (RpcException e) when (e.StatusCode == StatusCode.Unavailable)
                {
                    // The engine is away (ProtoHttp logs the outage once): this tick is not made; the next one tries again.
                }
            }
        }
        catch (OperationCanceledException) when (stoppingToken.IsCancellationRequested)
        {
            // The host is stopping.
        }

        await following;
    }

    /// <summary>Applies every tick of the feed, this instance's and the others', to the prices quoted here.</summary>
    private async Task FollowAsync(CancellationToken stoppingToken)
    {
        try
        {
            await foreach (var tick in Ticks.ReadAllAsync(stoppingToken))
            {
                if (_indexById.TryGetValue(tick.ProductId, out var index))
                {
                    Volatile.Write(ref _prices[index], tick.UnitPrice);
                }
            }
        }
        catch (OperationCanceledException) when (stoppingToken.IsCancellationRequested)
        {
            // The host is stopping.
        }
    }

    /// <summary>The next tick: one product's price moved, not yet applied; it applies when the feed carries it back.</summary>
    private PriceTick NextTick()
    {
        var index = _random.Next(_products.Length);
        // A step of at most 2% either way, rounded to the cent, never below one cent.
        var price = MathF.Max(0.01f, MathF.Round(Volatile.Read(ref _prices[index]) * (1 + ((float)_random.NextDouble() - 0.5f) * 0.04f), 2));
        return new PriceTick { Sequence = ++_sequence, ProductId = _products[index].Id, ProductName = _products[index].Name, UnitPrice = price };
    }
}
