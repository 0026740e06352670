using Microsoft.Extensions.DependencyInjection;
using Northwind;
using ProtoHttp.FunctionalTests.Infrastructure;
using SearchService.Streams;

namespace ProtoHttp.FunctionalTests;

/// <summary>
/// Two instances of the sample and one real Redis: with <c>PriceTicker:Redis</c> set, a tick published once reaches
/// every subscriber of both instances once, whichever instance made it, and a Redis restart loses no subscriber.
/// </summary>
public sealed class PriceFeedBackplaneTests
{
    private const string Feed = "/NorthwindStreams.proto/WatchPrices";

    // Far above the test's own ticks: where the markers' sequences start.
    private const long MarkerSequences = 1_000_000_000;

    private static readonly TimeSpan Patience = TimeSpan.FromSeconds(60);

    [RedisFact]
    public async Task ATickPublishedOnceReachesEverySubscriberOnceAndARedisRestartLosesNone()
    {
        await using var redis = await RedisServer.StartAsync();
        // The tickers wait an hour: the only ticks are the test's.
        await using var first = await StartInstanceAsync(redis, TimeSpan.FromHours(1));
        await using var second = await StartInstanceAsync(redis, TimeSpan.FromHours(1));
        var subscribers = await SubscribeAsync(first, second);
        try
        {
            await WaitUntilAsync(async () => await redis.PriceChannelSubscribersAsync() == 2, "both instances subscribed to the channel");

            var before = new PriceTick { Sequence = 1_000_001, ProductId = 1, ProductName = "Chai", UnitPrice = 42.42f };
            Assert.Equal(2, await redis.PublishTickAsync(before));
            await AssertEachReceivedOnceAsync(redis, subscribers, before);
            Assert.Equal(42.42f, Ticker(second).PriceOf(1)); // The instances share one walk: a tick moves the price everywhere.

            await redis.StartAgainAsync(); // Killed, then a new, empty one on the same port.
            await WaitUntilAsync(async () => await redis.PriceChannelSubscribersAsync() == 2, "both instances subscribed again after the restart");

            var after = new PriceTick { Sequence = 1_000_002, ProductId = 2, ProductName = "Chang", UnitPrice = 17.5f };
            Assert.Equal(2, await redis.PublishTickAsync(after));
            await AssertEachReceivedOnceAsync(redis, subscribers, after);
            Assert.All(subscribers, s => Assert.True(s.Connected, $"{s.Path} was disconnected."));
            Assert.All(subscribers, s => Assert.Equal([before.Sequence, after.Sequence], SequencesBesideMarkers(s)));
        }
        finally
        {
            await DisposeAllAsync(subscribers);
        }

        Assert.Empty((await first.Logs.ErrorsOnceEndedAsync()).Concat(await second.Logs.ErrorsOnceEndedAsync()));
    }

    [RedisFact]
    public async Task EachInstancesOwnTicksReachEverySubscriberOfBothOnce()
    {
        await using var redis = await RedisServer.StartAsync();
        await using var first = await StartInstanceAsync(redis, TimeSpan.FromMilliseconds(100));
        await using var second = await StartInstanceAsync(redis, TimeSpan.FromMilliseconds(150));
        var subscribers = await SubscribeAsync(first, second);
        long start;
        try
        {
            start = await SequenceNowAsync(subscribers);
            foreach (var subscriber in subscribers)
            {
                await subscriber.WaitForAsync(t => t.Sequence >= start + 30, Patience);
            }
        }
        finally
        {
            await DisposeAllAsync(subscribers);
        }

        // Every subscriber got each tick of the window once: one sequence for both instances' ticks, no gaps, no doubles.
        // The window keeps clear of its ends by a few ticks, where two instances' ticks may cross on their way.
        var low = start + 5;
        var high = subscribers.Min(s => s.Ticks.Max(t => t.Sequence)) - 5;
        foreach (var subscriber in subscribers)
        {
            var window = subscriber.Ticks.Select(t => t.Sequence).Where(s => s >= low && s <= high).Order().ToList();
            Assert.Equal(Enumerable.Range((int)low, (int)(high - low + 1)).Select(s => (long)s), window);
        }

        Assert.Empty((await first.Logs.ErrorsOnceEndedAsync()).Concat(await second.Logs.ErrorsOnceEndedAsync()));
    }

    [RedisFact]
    public async Task AnInstanceStartedWhileRedisIsDownServesAndJoinsTheFeedWhenRedisComesUp()
    {
        await using var redis = await RedisServer.StartAsync();
        await redis.StopAsync();
        await using var instance = await StartInstanceAsync(redis, TimeSpan.FromHours(1));
        await using var subscriber = TickSubscriber.Start(instance.Client, Feed + ".ndjson");
        await WaitUntilAsync(() => Task.FromResult(Ticker(instance).SubscriberCount == 1), "the subscriber");
        await WaitUntilAsync(
            () => Task.FromResult(instance.Logs.Entries.Any(e => e.Message.Contains("Redis cannot be reached", StringComparison.Ordinal))),
            "the instance to find Redis down");
        using var search = await instance.Client.GetAsync("/ProtoService.proto/Search?query=chai");
        Assert.Equal(System.Net.HttpStatusCode.OK, search.StatusCode);

        await redis.StartAgainAsync();
        await WaitUntilAsync(async () => await redis.PriceChannelSubscribersAsync() == 1, "the instance subscribed once Redis was up");
        var tick = new PriceTick { Sequence = 7, ProductId = 3, ProductName = "Aniseed Syrup", UnitPrice = 10.5f };
        Assert.Equal(1, await redis.PublishTickAsync(tick));

        await AssertEachReceivedOnceAsync(redis, [subscriber], tick);
        Assert.Empty(await instance.Logs.ErrorsOnceEndedAsync("/ProtoService.proto/Search")); // The feed is still open.
    }

    [RedisFact]
    public async Task WhileRedisIsDownEachRetryLogsOneLineWithTheReasonAndOnlyTheFirstCarriesTheStackTrace()
    {
        await using var redis = await RedisServer.StartAsync();
        await redis.StopAsync();
        await using var instance = await StartInstanceAsync(redis, TimeSpan.FromHours(1));

        await WaitUntilAsync(() => Task.FromResult(NotConnectedLines(instance).Count >= 3), "three attempts to reach Redis");

        var lines = NotConnectedLines(instance);
        Assert.NotNull(lines[0].Exception);
        Assert.All(lines.Skip(1), line => Assert.Null(line.Exception));
        Assert.All(lines, line => Assert.Matches(@"^Price feed backplane: Redis cannot be reached \(.+\); trying again in ", line.Message));
    }

    private static List<LogEntry> NotConnectedLines(SampleServer server) =>
        [.. server.Logs.Entries.Where(e => e.Category == typeof(RedisPriceBackplane).FullName && e.EventId.Id == 2)];

    private static Task<SampleServer> StartInstanceAsync(RedisServer redis, TimeSpan interval) => SampleServer.StartAsync(configure: builder =>
    {
        builder.Configuration["PriceTicker:Redis"] = redis.Configuration;
        builder.Configuration["PriceTicker:Interval"] = interval.ToString();
    });

    private static PriceTicker Ticker(SampleServer server) => server.Services.GetRequiredService<PriceTicker>();

    /// <summary>Two subscribers on each instance, as events and as NDJSON; returns once each instance counts its two.</summary>
    private static async Task<TickSubscriber[]> SubscribeAsync(SampleServer first, SampleServer second)
    {
        TickSubscriber[] subscribers =
        [
            TickSubscriber.Start(first.Client, Feed + ".sse"),
            TickSubscriber.Start(first.Client, Feed + ".ndjson"),
            TickSubscriber.Start(second.Client, Feed + ".sse"),
            TickSubscriber.Start(second.Client, Feed + ".ndjson"),
        ];
        await WaitUntilAsync(() => Task.FromResult(Ticker(first).SubscriberCount == 2 && Ticker(second).SubscriberCount == 2), "four subscribers");
        return subscribers;
    }

    /// <summary>The highest sequence any subscriber has seen, once each has seen a tick: later ticks reach all four.</summary>
    private static async Task<long> SequenceNowAsync(TickSubscriber[] subscribers)
    {
        foreach (var subscriber in subscribers)
        {
            await subscriber.WaitForAsync(t => t.Sequence > 0, Patience);
        }

        return subscribers.Max(s => s.Ticks.Max(t => t.Sequence));
    }

    /// <summary>
    /// Waits for <paramref name="tick"/> at every subscriber, then for a marker tick published after it on the same
    /// channel: each instance has one subscription (PUBLISH counted them) and hands ticks on in the order they came, so
    /// a second copy of the tick would have reached a subscriber before the marker did.
    /// </summary>
    private static async Task AssertEachReceivedOnceAsync(RedisServer redis, TickSubscriber[] subscribers, PriceTick tick)
    {
        foreach (var subscriber in subscribers)
        {
            await subscriber.WaitForAsync(t => t.Sequence == tick.Sequence, Patience);
        }

        var marker = new PriceTick { Sequence = MarkerSequences + tick.Sequence, ProductId = 77, ProductName = "Original Frankfurter grüne Soße", UnitPrice = 13 };
        Assert.True(await redis.PublishTickAsync(marker) > 0, "no instance listens on the channel");
        foreach (var subscriber in subscribers)
        {
            await subscriber.WaitForAsync(t => t.Sequence == marker.Sequence, Patience);
        }

        Assert.All(subscribers, s => Assert.Equal(tick, Assert.Single(s.Ticks, t => t.Sequence == tick.Sequence)));
    }

    /// <summary>The ticks a subscriber received, but the markers <see cref="AssertEachReceivedOnceAsync"/> published.</summary>
    private static IEnumerable<long> SequencesBesideMarkers(TickSubscriber subscriber) =>
        subscriber.Ticks.Select(t => t.Sequence).Where(sequence => sequence < MarkerSequences);

    private static async Task WaitUntilAsync(Func<Task<bool>> condition, string what)
    {
        var deadline = DateTime.UtcNow + Patience;
        while (!await condition())
        {
            if (DateTime.UtcNow > deadline)
            {
                throw new TimeoutException($"Waited {Patience} for {what}.");
            }

            await Task.Delay(50);
        }
    }

    private static async Task DisposeAllAsync(IEnumerable<TickSubscriber> subscribers)
    {
        foreach (var subscriber in subscribers)
        {
            await subscriber.DisposeAsync();
        }
    }
}
