using System.Collections.Concurrent;
using System.Threading.Channels;
using Microsoft.Extensions.Options;
using Northwind;
using ProtoHttp.AspNetCore;
using SearchService.Catalog;

namespace SearchService.Streams;

/// <summary>
/// The one price ticker of the sample: a background loop that moves one product's price at each interval and hands the
/// tick to every subscriber. Fan-out, not one producer per client: a tick is made once, whoever listens. The ticker
/// never waits for a subscriber; one that falls more than a few ticks behind loses its oldest ticks (the sequence
/// numbers show the gap), so one slow client cannot hold back the others or grow the server's memory. Each tick goes
/// out as a <see cref="BroadcastMessage{T}"/>: its JSON event, line or envelope is serialized once for all the
/// subscribers that read it in that form, not once per subscriber. With
/// <see cref="PriceTickerOptions.Redis"/> set, the ticks of every instance travel through a
/// <see cref="RedisPriceBackplane"/> and this instance delivers only what comes back from it, its own ticks included.
/// </summary>
public sealed class PriceTicker : BackgroundService
{
    private const int SubscriberBacklog = 64;

    private readonly ConcurrentDictionary<Channel<BroadcastMessage<PriceTick>>, byte> _subscribers = new();
    private readonly (int Id, string Name)[] _products;
    private readonly Dictionary<int, int> _indexById;
    private readonly float[] _prices;
    private readonly TimeSpan _interval;
    private readonly Random _random;
    private readonly RedisPriceBackplane? _backplane;
    private long _sequence;

    public PriceTicker(ProductCatalog catalog, NorthwindOrders orders, IOptions<PriceTickerOptions> options, ILoggerFactory loggerFactory)
    {
        _products = catalog.Products.Select(p => (p.Id, p.Name)).ToArray();
        _indexById = _products.Select((p, index) => (p.Id, index)).ToDictionary(p => p.Id, p => p.index);
        var lastPrices = orders.All.Orders.SelectMany(o => o.Lines).GroupBy(l => l.ProductId).ToDictionary(g => g.Key, g => g.Last().UnitPrice);
        _prices = _products.Select(p => lastPrices.GetValueOrDefault(p.Id, 10f)).ToArray();
        _interval = options.Value.Interval;
        if (options.Value.Redis is { Length: > 0 } redis)
        {
            _backplane = new RedisPriceBackplane(redis, loggerFactory.CreateLogger<RedisPriceBackplane>());
            // Instances walking the same way would make ticks that look alike; each walks its own.
            _random = new Random();
        }
        else
        {
            _random = new Random(1996); // The year of the Northwind data: the same walk every run.
        }
    }

    /// <summary>How many subscribers this instance has now.</summary>
    public int SubscriberCount => _subscribers.Count;

    /// <summary>The current price of a product, or <see langword="null"/> for an unknown one.</summary>
    public float? PriceOf(int productId) =>
        _indexById.TryGetValue(productId, out var index) ? Volatile.Read(ref _prices[index]) : null;

    /// <summary>Starts receiving ticks; dispose the subscription to stop.</summary>
    public Subscription Subscribe()
    {
        var channel = Channel.CreateBounded<BroadcastMessage<PriceTick>>(new BoundedChannelOptions(SubscriberBacklog)
        {
            FullMode = BoundedChannelFullMode.DropOldest,
            SingleReader = true,
            SingleWriter = true,
        });
        _subscribers.TryAdd(channel, 0);
        return new Subscription(this, channel);
    }

    protected override async Task ExecuteAsync(CancellationToken stoppingToken)
    {
        var backplane = _backplane?.RunAsync(Deliver, stoppingToken) ?? Task.CompletedTask;
        using var timer = new PeriodicTimer(_interval);
        try
        {
            while (await timer.WaitForNextTickAsync(stoppingToken))
            {
                var tick = NextTick();
                if (_backplane is null)
                {
                    tick.Sequence = ++_sequence;
                    Deliver(tick);
                }
                else
                {
                    // Delivered when the channel carries it back, here as on every other instance; lost if Redis is down.
                    await _backplane.PublishAsync(tick);
                }
            }
        }
        catch (OperationCanceledException) when (stoppingToken.IsCancellationRequested)
        {
            // The host is stopping.
        }

        await backplane;
        if (_backplane is not null)
        {
            await _backplane.DisposeAsync();
        }

        foreach (var channel in _subscribers.Keys)
        {
            channel.Writer.TryComplete();
        }
    }

    /// <summary>The next tick: one product's price moved, not yet applied; it applies when the tick is delivered.</summary>
    private PriceTick NextTick()
    {
        var index = _random.Next(_products.Length);
        // A step of at most 2% either way, rounded to the cent, never below one cent.
        var price = MathF.Max(0.01f, MathF.Round(Volatile.Read(ref _prices[index]) * (1 + ((float)_random.NextDouble() - 0.5f) * 0.04f), 2));
        return new PriceTick { ProductId = _products[index].Id, ProductName = _products[index].Name, UnitPrice = price };
    }

    /// <summary>Applies a tick (from this ticker, or from the backplane: the instances share one walk) and hands it to every subscriber.</summary>
    private void Deliver(PriceTick tick)
    {
        if (_indexById.TryGetValue(tick.ProductId, out var index))
        {
            Volatile.Write(ref _prices[index], tick.UnitPrice);
        }

        var shared = new BroadcastMessage<PriceTick>(tick);
        foreach (var channel in _subscribers.Keys)
        {
            channel.Writer.TryWrite(shared);
        }
    }

    /// <summary>One subscriber's ticks.</summary>
    public sealed class Subscription(PriceTicker ticker, Channel<BroadcastMessage<PriceTick>> channel) : IDisposable
    {
        /// <summary>The ticks, each shared with every other subscriber: it must not change.</summary>
        public ChannelReader<BroadcastMessage<PriceTick>> Ticks => channel.Reader;

        public void Dispose()
        {
            ticker._subscribers.TryRemove(channel, out _);
            channel.Writer.TryComplete();
        }
    }
}
