using System.Net;
using Microsoft.AspNetCore.Builder;
using Microsoft.Extensions.DependencyInjection;
using Northwind;
using ProtoHttp.AspNetCore;
using ProtoHttp.FunctionalTests.Infrastructure;
using SearchService.Streams;

namespace ProtoHttp.FunctionalTests;

/// <summary>
/// The sample's price feed on one instance with no engine configured (topics in memory): every event and NDJSON line
/// carries its id, and <c>Last-Event-ID</c> resumes right after it; an id the log no longer keeps is said first with
/// a gap notice; a malformed one is a 400 naming the header (docs/protocol.md, "Topics: streams that resume").
/// </summary>
public sealed class TopicResumeTests
{
    private const string Feed = "/NorthwindStreams.proto/WatchPrices";
    private static readonly TimeSpan Patience = TimeSpan.FromSeconds(30);

    [Theory]
    [InlineData(".sse")]
    [InlineData(".ndjson")]
    public async Task EachMessageCarriesItsIdAndLastEventIdResumesRightAfterIt(string suffix)
    {
        await using var server = await StartAsync();
        var topic = Topic(server);
        await using var subscriber = TopicSubscriber.Start(server.Client, Feed + suffix);
        await WaitForSubscribersAsync(topic, 1);
        var published = new List<(TopicPosition Id, PriceTick Tick)>();
        await PublishAsync(topic, published, 5);
        await subscriber.WaitForTicksAsync(5, Patience);

        await subscriber.DisconnectAsync();
        await WaitForSubscribersAsync(topic, 0);
        await PublishAsync(topic, published, 3); // Published while it was away.
        await subscriber.ResumeOnAsync(server.Client);
        await subscriber.WaitForTicksAsync(8, Patience);
        await WaitForSubscribersAsync(topic, 1);
        await PublishAsync(topic, published, 2); // Live again.
        await subscriber.WaitForTicksAsync(10, Patience);

        Assert.Equal(published.Select(p => (p.Id.ToString(), p.Tick)), subscriber.Ticks.Select(r => (r.Id, r.Tick!)));
        Assert.Empty(subscriber.Gaps);
        await subscriber.DisconnectAsync(); // An error logged as the subscription ends shows only once its end line is in.
        Assert.Empty(await server.Logs.ErrorsOnceEndedAsync());
    }

    [Theory]
    [InlineData(".sse")]
    [InlineData(".ndjson")]
    public async Task AnIdOlderThanTheLogKeepsIsSaidWithAGapNoticeBeforeWhatIsKept(string suffix)
    {
        await using var server = await StartAsync(builder => builder.Services.AddProtoHttp().AddTopics(o => o.InMemoryMaxLength = 3));
        var topic = Topic(server);
        var published = new List<(TopicPosition Id, PriceTick Tick)>();
        await PublishAsync(topic, published, 6); // The log keeps the last 3.

        await using var subscriber = TopicSubscriber.Start(server.Client, Feed + suffix, lastEventId: published[0].Id.ToString());
        await subscriber.WaitForTicksAsync(3, Patience);
        await WaitForSubscribersAsync(topic, 1);
        await PublishAsync(topic, published, 1);
        await subscriber.WaitForTicksAsync(4, Patience);

        Assert.Equal([published[0].Id.ToString()], subscriber.Gaps);
        Assert.Equal(published.Skip(3).Select(p => p.Id.ToString()), subscriber.Ticks.Select(r => r.Id));
    }

    [Theory]
    [InlineData(".sse", "abc")]
    [InlineData(".ndjson", "12")]
    [InlineData(".sse", "1-2-3")]
    [InlineData(".sse", "99999999999999999999999-0")]
    public async Task AMalformedLastEventIdIsA400NamingTheHeader(string suffix, string id)
    {
        await using var server = await StartAsync();
        using var request = new HttpRequestMessage(HttpMethod.Get, Feed + suffix);
        request.Headers.TryAddWithoutValidation("Last-Event-ID", id);

        using var response = await server.Client.SendAsync(request);

        var error = await ErrorTests.AssertErrorAsync(response, HttpStatusCode.BadRequest, "INVALID_ARGUMENT");
        Assert.Contains("Last-Event-ID", error.ErrorText, StringComparison.Ordinal);
    }

    internal static ProtoTopic<PriceTick> Topic(SampleServer server) => server.Services.GetRequiredService<PriceTicker>().Ticks;

    /// <summary>Waits until <paramref name="count"/> streams are on the live feed, beside the ticker's own reader.</summary>
    internal static async Task WaitForSubscribersAsync(ProtoTopic<PriceTick> topic, int count)
    {
        var deadline = DateTime.UtcNow + Patience;
        while (topic.SubscriberCount != count + 1)
        {
            Assert.True(DateTime.UtcNow < deadline, $"{topic.SubscriberCount - 1} subscribers, not {count}, after {Patience}.");
            await Task.Delay(20);
        }
    }

    private static async Task PublishAsync(ProtoTopic<PriceTick> topic, List<(TopicPosition, PriceTick)> published, int count)
    {
        for (var i = 0; i < count; i++)
        {
            var tick = new PriceTick { Sequence = published.Count + 1, ProductId = 1 + published.Count % 7, ProductName = "Chai", UnitPrice = 10 + published.Count };
            published.Add((await topic.PublishAsync(tick), tick));
        }
    }

    private static Task<SampleServer> StartAsync(Action<WebApplicationBuilder>? configure = null) => SampleServer.StartAsync(configure: builder =>
    {
        builder.Configuration["PriceTicker:Interval"] = TimeSpan.FromHours(1).ToString(); // The only ticks are the test's.
        configure?.Invoke(builder);
    });
}
