using System.Collections.Concurrent;
using System.Threading.Channels;
using Microsoft.Extensions.Options;
using Northwind;
using SearchService.Catalog;

namespace SearchService.Streams;

/// <summary>
/// The one price ticker of the sample: a background loop that moves one product's price at each interval and hands the
/// tick to every subscriber. Fan-out, not one producer per client: a tick is made once, whoever listens. The ticker
/// never waits for a subscriber; one that falls more than a few ticks behind loses its oldest ticks (the sequence
/// numbers show the gap), so one slow client cannot hold back the others or grow the server's memory.
/// </summary>
public sealed class PriceTicker : BackgroundService
{
    private const int SubscriberBacklog = 64;

    private readonly ConcurrentDictionary<Channel<PriceTick>, byte> _subscribers = new();
    private readonly (int Id, string Name)[] _products;
    private readonly float[] _prices;
    private readonly TimeSpan _interval;
    private readonly Random _random = new(1996); // The year of the Northwind data: the same walk every run.
    private long _sequence;

    public PriceTicker(ProductCatalog catalog, NorthwindOrders orders, IOptions<PriceTickerOptions> options)
    {
        _products = catalog.Products.Select(p => (p.Id, p.Name)).ToArray();
        var lastPrices = orders.All.Orders.SelectMany(o => o.Lines).GroupBy(l => l.ProductId).ToDictionary(g => g.Key, g => g.Last().UnitPrice);
        _prices = _products.Select(p => lastPrices.GetValueOrDefault(p.Id, 10f)).ToArray();
        _interval = options.Value.Interval;
    }

    /// <summary>The current price of a product, or <see langword="null"/> for an unknown one.</summary>
    public float? PriceOf(int productId)
    {
        for (var i = 0; i < _products.Length; i++)
        {
            if (_products[i].Id == productId)
            {
                return Volatile.Read(ref _prices[i]);
            }
        }

        return null;
    }

    /// <summary>Starts receiving ticks; dispose the subscription to stop.</summary>
    public Subscription Subscribe()
    {
        var channel = Channel.CreateBounded<PriceTick>(new BoundedChannelOptions(SubscriberBacklog)
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
        using var timer = new PeriodicTimer(_interval);
        try
        {
            while (await timer.WaitForNextTickAsync(stoppingToken))
            {
                Publish(NextTick());
            }
        }
        catch (OperationCanceledException) when (stoppingToken.IsCancellationRequested)
        {
            // The host is stopping.
        }

        foreach (var channel in _subscribers.Keys)
        {
            channel.Writer.TryComplete();
        }
    }

    private PriceTick NextTick()
    {
        var index = _random.Next(_products.Length);
        // A step of at most 2% either way, rounded to the cent, never below one cent.
        var price = MathF.Max(0.01f, MathF.Round(_prices[index] * (1 + ((float)_random.NextDouble() - 0.5f) * 0.04f), 2));
        Volatile.Write(ref _prices[index], price);
        return new PriceTick { Sequence = ++_sequence, ProductId = _products[index].Id, ProductName = _products[index].Name, UnitPrice = price };
    }

    private void Publish(PriceTick tick)
    {
        foreach (var channel in _subscribers.Keys)
        {
            channel.Writer.TryWrite(tick);
        }
    }

    /// <summary>One subscriber's ticks.</summary>
    public sealed class Subscription(PriceTicker ticker, Channel<PriceTick> channel) : IDisposable
    {
        public ChannelReader<PriceTick> Ticks => channel.Reader;

        public void Dispose()
        {
            ticker._subscribers.TryRemove(channel, out _);
            channel.Writer.TryComplete();
        }
    }
}
