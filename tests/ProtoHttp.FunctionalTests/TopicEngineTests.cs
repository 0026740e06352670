using System.Net;
using Google.Protobuf;
using Grpc.Core;
using Microsoft.Extensions.DependencyInjection;
using Microsoft.Extensions.Logging;
using ProtoHttp.AspNetCore;
using ProtoHttp.AspNetCore.Nats;
using ProtoHttp.AspNetCore.Redis;
using ProtoHttp.FunctionalTests.Infrastructure;

namespace ProtoHttp.FunctionalTests;

/// <summary>
/// Two instances of the sample sharing the price feed's topic through a real engine started by the test on a free port
/// with its own folder (<c>redis-server</c> with its append-only file, <c>nats-server -js</c> with its file store), both
/// ticking: a subscriber whose instance stops
/// resumes on the other with exactly what an always-connected subscriber got; an engine crash and restart loses and
/// doubles nothing; a storm of resuming subscribers each gets exactly the missed messages; an id the trimmed log no
/// longer keeps is said in every framing and by the typed client (docs/protocol.md, "Topics: streams that resume").
/// Each test runs under a time limit.
/// </summary>
public sealed class TopicEngineTests
{
    private const string Feed = "/NorthwindStreams.proto/WatchPrices";
    private static readonly TimeSpan Patience = TimeSpan.FromSeconds(60);
    private static readonly TimeSpan TimeLimit = TimeSpan.FromSeconds(150);

    [EngineTheory]
    [InlineData(TopicEngines.Redis, ".sse")]
    [InlineData(TopicEngines.Redis, ".ndjson")]
    [InlineData(TopicEngines.Nats, ".sse")]
    [InlineData(TopicEngines.Nats, ".ndjson")]
    public Task ASubscriberWhoseInstanceStopsResumesOnTheOtherWithWhatAnAlwaysConnectedSubscriberGot(string engine, string suffix) => WithinTimeLimit(async () =>
    {
        await using var server = await TopicEngines.StartAsync(engine);
        var first = await StartInstanceAsync(server, TimeSpan.FromMilliseconds(30));
        await using var second = await StartInstanceAsync(server, TimeSpan.FromMilliseconds(40));
        await using var always = TopicSubscriber.Start(second.Client, Feed + suffix);
        await TopicResumeTests.WaitForSubscribersAsync(TopicResumeTests.Topic(second), 1);
        await using var moving = TopicSubscriber.Start(first.Client, Feed + suffix);
        await moving.WaitForTicksAsync(20, Patience);

        await first.DisposeAsync(); // Its subscriptions end as it stops; the client comes back on the other instance.
        await moving.WaitUntilDisconnectedAsync(Patience);
        var missedFrom = always.Ticks.Count;
        await always.WaitForTicksAsync(missedFrom + 10, Patience); // Published while the subscriber was away.
        await moving.ResumeOnAsync(second.Client);
        var target = always.Ticks.Count + 10;
        await always.WaitForTicksAsync(target, Patience);
        var last = always.Ticks[target - 1].Id;
        await WaitUntilAsync(() => moving.Ticks.Any(t => t.Id == last), $"the resumed subscriber to reach {last}");

        AssertSameFeed(always, moving);
        Assert.Empty(moving.Gaps);
        await always.DisconnectAsync();
        await moving.DisconnectAsync();
        Assert.Empty(first.Logs.Errors.Concat(await second.Logs.ErrorsOnceEndedAsync())); // The first has stopped: all its lines are in.
    });

    [EngineTheory]
    [InlineData(TopicEngines.Redis)]
    [InlineData(TopicEngines.Nats)]
    public Task AnEngineCrashAndRestartWithWhatItPersistedLosesAndDoublesNothing(string engine) => WithinTimeLimit(async () =>
    {
        await using var server = await TopicEngines.StartAsync(engine);
        await using var first = await StartInstanceAsync(server, TimeSpan.FromMilliseconds(30));
        await using var second = await StartInstanceAsync(server, TimeSpan.FromMilliseconds(40));
        await using var onFirst = TopicSubscriber.Start(first.Client, Feed + ".sse");
        await using var onSecond = TopicSubscriber.Start(second.Client, Feed + ".ndjson");
        await onFirst.WaitForTicksAsync(10, Patience);
        await onSecond.WaitForTicksAsync(10, Patience);

        await server.StopAsync(); // Killed: no goodbye.
        await WaitUntilAsync(() => OutageLines(first).Count > 0 && OutageLines(second).Count > 0, "each instance to log the outage");
        // Reads retry meanwhile; a publish waits its timeout (1 s here), then fails to its caller and is never appended.
        var unpublished = new Northwind.PriceTick { Sequence = -1, ProductId = 1, ProductName = "Chai", UnitPrice = 1 };
        var waited = System.Diagnostics.Stopwatch.StartNew();
        var refused = await Assert.ThrowsAsync<Grpc.Core.RpcException>(() => TopicResumeTests.Topic(first).PublishAsync(unpublished));
        Assert.Equal(Grpc.Core.StatusCode.Unavailable, refused.StatusCode);
        Assert.InRange(waited.Elapsed, TimeSpan.FromSeconds(0.9), TimeSpan.FromSeconds(10));
        var before = (onFirst.Ticks.Count, onSecond.Ticks.Count);
        await server.StartAgainAsync();
        await onFirst.WaitForTicksAsync(before.Item1 + 20, Patience);
        await onSecond.WaitForTicksAsync(before.Item2 + 20, Patience);

        Assert.True(onFirst.Connected && onSecond.Connected, "A subscriber was disconnected by the outage.");
        Assert.DoesNotContain(onFirst.Ticks, t => t.Tick!.Sequence == -1);
        AssertSameFeed(onFirst, onSecond);
        // What each got, then the log (read after, so it holds all of it): nothing skipped in between, nothing twice.
        var received = new[] { onFirst, onSecond }.Select(s => s.Ticks.Select(t => t.Id).ToList()).ToList();
        var log = await server.PriceFeedIdsAsync();
        foreach (var ids in received)
        {
            var start = Array.IndexOf(log, ids[0]);
            Assert.True(start >= 0, $"{ids[0]} is not in the log.");
            Assert.Equal(log.Skip(start).Take(ids.Count), ids);
        }

        // One line per outage, not per retry; and one when it is over.
        Assert.All(new[] { first, second }, server => Assert.Single(OutageLines(server)));
        Assert.All(new[] { first, second }, server => Assert.Single(server.Logs.Entries, e => e.Category == "ProtoHttp.AspNetCore.Topics" && e.EventId.Id == 201));
        await onFirst.DisconnectAsync();
        await onSecond.DisconnectAsync();
        Assert.Empty((await first.Logs.ErrorsOnceEndedAsync()).Concat(await second.Logs.ErrorsOnceEndedAsync()));
    });

    [EngineTheory]
    [InlineData(TopicEngines.Redis)]
    [InlineData(TopicEngines.Nats)]
    public Task AStormOf200ResumingSubscribersEachGetsExactlyWhatTheyMissed(string engine) => WithinTimeLimit(async () =>
    {
        await using var server = await TopicEngines.StartAsync(engine);
        await using var first = await StartInstanceAsync(server, TimeSpan.FromMilliseconds(30));
        await using var second = await StartInstanceAsync(server, TimeSpan.FromMilliseconds(40));
        await using var always = TopicSubscriber.Start(first.Client, Feed + ".sse");
        await always.WaitForTicksAsync(30, Patience);
        var resumeAfter = always.Ticks[5].Id;

        var storm = Enumerable.Range(0, 200)
            .Select(i => TopicSubscriber.Start(i % 2 == 0 ? second.Client : first.Client, Feed + (i % 4 < 2 ? ".sse" : ".ndjson"), resumeAfter))
            .ToList();
        try
        {
            var target = always.Ticks.Count + 20;
            await always.WaitForTicksAsync(target, Patience);
            var last = always.Ticks[target - 1].Id;
            await WaitUntilAsync(() => storm.All(s => s.Ticks.Any(t => t.Id == last)), $"all 200 to reach {last}");

            Assert.All(storm, subscriber =>
            {
                Assert.Equal(always.Ticks[6].Id, subscriber.Ticks[0].Id); // Right after the id it sent.
                AssertSameFeed(always, subscriber);
            });
        }
        finally
        {
            foreach (var subscriber in storm)
            {
                await subscriber.DisposeAsync();
            }
        }

        // An error logged as a subscription ends shows only once every request's end line is in.
        await always.DisconnectAsync();
        Assert.Empty((await first.Logs.ErrorsOnceEndedAsync()).Concat(await second.Logs.ErrorsOnceEndedAsync()));
    });

    [EngineTheory]
    [InlineData(TopicEngines.Redis, ".sse")]
    [InlineData(TopicEngines.Redis, ".ndjson")]
    [InlineData(TopicEngines.Redis, "envelopes")]
    [InlineData(TopicEngines.Redis, "connect")]
    [InlineData(TopicEngines.Redis, "grpc")]
    [InlineData(TopicEngines.Nats, ".sse")]
    [InlineData(TopicEngines.Nats, ".ndjson")]
    [InlineData(TopicEngines.Nats, "envelopes")]
    [InlineData(TopicEngines.Nats, "connect")]
    [InlineData(TopicEngines.Nats, "grpc")]
    public Task AnIdTheLogNoLongerKeepsIsSaidInEveryFramingNeverSkippedSilently(string engine, string framing) => WithinTimeLimit(async () =>
    {
        await using var server = await TopicEngines.StartAsync(engine);
        await using var instance = await SampleServer.StartAsync(configure: builder =>
        {
            server.Configure(builder);
            builder.Configuration["PriceTicker:Interval"] = TimeSpan.FromHours(1).ToString(); // The only ticks are the test's.
            // The log keeps 3 messages: of the 6 published, the first 3 are trimmed.
            builder.Services.PostConfigure<RedisBackplaneOptions>(o => o.MaxLength = 3);
            builder.Services.PostConfigure<NatsBackplaneOptions>(o => o.MaxLength = 3);
        });
        var topic = TopicResumeTests.Topic(instance);
        var ids = new List<string>();
        for (var i = 0; i < 6; i++)
        {
            ids.Add((await topic.PublishAsync(new Northwind.PriceTick { Sequence = i + 1, ProductId = 1, ProductName = "Chai", UnitPrice = 10 + i })).ToString());
        }

        var gone = ids[0];
        switch (framing)
        {
            case ".sse" or ".ndjson":
                // A notice first, then what the log still keeps.
                await using (var subscriber = TopicSubscriber.Start(instance.Client, Feed + framing, lastEventId: gone))
                {
                    await subscriber.WaitForTicksAsync(3, Patience);
                    Assert.Equal([gone], subscriber.Gaps);
                    Assert.Equal(ids.Skip(3), subscriber.Ticks.Select(t => t.Id));
                }

                break;
            case "envelopes":
                // ProtoHttp's own envelope stream: nothing was written yet, so the failure answers as a unary one does.
                using (var request = new HttpRequestMessage(HttpMethod.Post, Feed) { Content = new ByteArrayContent(new Northwind.PriceWatch().ToByteArray()) })
                {
                    request.Content.Headers.ContentType = new System.Net.Http.Headers.MediaTypeHeaderValue("application/x-protobuf");
                    request.Headers.Accept.ParseAdd("application/connect+proto");
                    request.Headers.TryAddWithoutValidation("Last-Event-ID", gone);
                    using var response = await instance.Client.SendAsync(request);
                    // The ErrorResult in the request's format.
                    var error = await ErrorTests.AssertErrorAsync(response, HttpStatusCode.BadRequest, "OUT_OF_RANGE", errorType: "application/x-protobuf");
                    Assert.Contains($"Last-Event-ID {gone}", error.ErrorText, StringComparison.Ordinal);
                }

                break;
            case "connect":
                // No notice a Connect client reads: the call ends with out_of_range before any message.
                using (var request = ConnectWatchRequest(gone))
                using (var response = await instance.Client.SendAsync(request))
                {
                    // A Connect stream always answers 200: the end-stream envelope carries the error, and no message comes before it.
                    Assert.Equal(HttpStatusCode.OK, response.StatusCode);
                    var body = await response.Content.ReadAsByteArrayAsync();
                    Assert.Equal(0x02, body[0]); // The first envelope is the end of the stream.
                    var length = System.Buffers.Binary.BinaryPrimitives.ReadInt32BigEndian(body.AsSpan(1));
                    Assert.Equal(5 + length, body.Length);
                    using var end = System.Text.Json.JsonDocument.Parse(body.AsMemory(5, length));
                    var error = end.RootElement.GetProperty("error");
                    Assert.Equal("out_of_range", error.GetProperty("code").GetString());
                    Assert.Contains($"Last-Event-ID {gone}", error.GetProperty("message").GetString(), StringComparison.Ordinal);
                }

                break;
            default:
                // gRPC: the call's status.
                using (var channel = Grpc.Net.Client.GrpcChannel.ForAddress(instance.Http2Address))
                {
                    var client = new Northwind.NorthwindStreams.NorthwindStreamsClient(channel);
                    using var call = client.WatchPrices(new Northwind.PriceWatch(), new Grpc.Core.Metadata { { "last-event-id", gone } });
                    var refused = await Assert.ThrowsAsync<Grpc.Core.RpcException>(() => call.ResponseStream.MoveNext());
                    Assert.Equal(Grpc.Core.StatusCode.OutOfRange, refused.StatusCode);
                    Assert.Contains($"Last-Event-ID {gone}", refused.Status.Detail, StringComparison.Ordinal);
                }

                break;
        }

        Assert.Empty(await instance.Logs.ErrorsOnceEndedAsync());
    });

    /// <summary>
    /// Both got the same ticks with the same ids, in the same order, over the ids both cover; ids only go up.
    /// </summary>
    private static void AssertSameFeed(TopicSubscriber reference, TopicSubscriber other)
    {
        var mine = reference.Ticks.ToList();
        var theirs = other.Ticks.ToList();
        AssertIncreasing(mine);
        AssertIncreasing(theirs);
        var from = TopicPositionOf(theirs[0].Id) > TopicPositionOf(mine[0].Id) ? theirs[0].Id : mine[0].Id;
        var to = TopicPositionOf(theirs[^1].Id) < TopicPositionOf(mine[^1].Id) ? theirs[^1].Id : mine[^1].Id;
        Assert.Equal(Between(mine, from, to), Between(theirs, from, to));
        Assert.NotEmpty(Between(mine, from, to));
    }

    private static List<(string Id, Northwind.PriceTick Tick)> Between(IEnumerable<TopicSubscriber.Received> ticks, string from, string to) =>
        [.. ticks.Where(t => TopicPositionOf(t.Id) >= TopicPositionOf(from) && TopicPositionOf(t.Id) <= TopicPositionOf(to)).Select(t => (t.Id, t.Tick!))];

    private static void AssertIncreasing(List<TopicSubscriber.Received> ticks)
    {
        for (var i = 1; i < ticks.Count; i++)
        {
            Assert.True(TopicPositionOf(ticks[i - 1].Id) < TopicPositionOf(ticks[i].Id), $"{ticks[i].Id} came after {ticks[i - 1].Id}.");
        }
    }

    private static TopicPosition TopicPositionOf(string id) => TopicPosition.TryParse(id, out var position) ? position : throw new FormatException(id);

    [EngineTheory]
    [InlineData(TopicEngines.Redis)]
    [InlineData(TopicEngines.Nats)]
    public Task TheTypedClientResumingPastWhatTheLogKeepsThrowsOutOfRangeInsteadOfGoingOn(string engine) => WithinTimeLimit(async () =>
    {
        await using var server = await TopicEngines.StartAsync(engine);
        await using var instance = await SampleServer.StartAsync(configure: builder =>
        {
            server.Configure(builder);
            builder.Configuration["PriceTicker:Interval"] = TimeSpan.FromHours(1).ToString();
            builder.Services.PostConfigure<RedisBackplaneOptions>(o => o.MaxLength = 3);
            builder.Services.PostConfigure<NatsBackplaneOptions>(o => o.MaxLength = 3);
        });
        var topic = TopicResumeTests.Topic(instance);
        var breaker = new HeldResume();
        using var http = new HttpClient(breaker);
        var client = new Northwind.NorthwindStreams.NorthwindStreamsClient(
            new ProtoHttp.Client.ProtoHttpCallInvoker(http, new ProtoHttp.Client.ProtoHttpClientOptions { Address = instance.Http1Address }));
        using var call = client.WatchPrices(new Northwind.PriceWatch(), cancellationToken: new CancellationTokenSource(Patience).Token);
        await TopicResumeTests.WaitForSubscribersAsync(topic, 1);
        await topic.PublishAsync(new Northwind.PriceTick { Sequence = 1, ProductId = 1, ProductName = "Chai", UnitPrice = 10 });
        Assert.True(await call.ResponseStream.MoveNext());

        // The connection breaks; while the client is away 6 more are published, and the log keeps the last 3 only.
        var reading = call.ResponseStream.MoveNext();
        breaker.Break();
        await breaker.ResumeAsked.WaitAsync(Patience);
        for (var i = 2; i <= 7; i++)
        {
            await topic.PublishAsync(new Northwind.PriceTick { Sequence = i, ProductId = 1, ProductName = "Chai", UnitPrice = 10 + i });
        }

        breaker.LetResumeThrough();
        var refused = await Assert.ThrowsAsync<Grpc.Core.RpcException>(() => reading);
        Assert.Equal(Grpc.Core.StatusCode.OutOfRange, refused.StatusCode);
        Assert.Contains("no longer keeps every message after the Last-Event-ID", refused.Status.Detail, StringComparison.Ordinal);
        Assert.Equal(1, breaker.Resumes); // Said once, not tried again.
    });

    /// <summary>The price feed as a Connect server stream of protobuf envelopes with event ids, resuming after <paramref name="lastEventId"/>.</summary>
    private static HttpRequestMessage ConnectWatchRequest(string lastEventId)
    {
        var watch = new Northwind.PriceWatch().ToByteArray();
        var envelope = new byte[5 + watch.Length];
        System.Buffers.Binary.BinaryPrimitives.WriteInt32BigEndian(envelope.AsSpan(1), watch.Length);
        watch.CopyTo(envelope, 5);
        var request = new HttpRequestMessage(HttpMethod.Post, "/Northwind.NorthwindStreams/WatchPrices") { Content = new ByteArrayContent(envelope) };
        request.Content.Headers.ContentType = new System.Net.Http.Headers.MediaTypeHeaderValue("application/connect+proto");
        request.Headers.TryAddWithoutValidation("Connect-Protocol-Version", "1");
        request.Headers.TryAddWithoutValidation("ProtoHttp-Event-Ids", "1");
        request.Headers.TryAddWithoutValidation("Last-Event-ID", lastEventId);
        return request;
    }

    private static List<LogEntry> OutageLines(SampleServer server) => [.. server.Logs.Entries.Where(e => e.Category == "ProtoHttp.AspNetCore.Topics" && e.EventId.Id == 200)];

    private static Task<SampleServer> StartInstanceAsync(ITopicEngineServer engine, TimeSpan interval) => SampleServer.StartAsync(configure: builder =>
    {
        engine.Configure(builder);
        builder.Configuration["PriceTicker:Interval"] = interval.ToString();
        builder.Services.AddProtoHttp().AddTopics(o => o.PublishTimeout = TimeSpan.FromSeconds(1));
    });

    private static async Task WaitUntilAsync(Func<bool> condition, string what)
    {
        var deadline = DateTime.UtcNow + Patience;
        while (!condition())
        {
            if (DateTime.UtcNow > deadline)
            {
                throw new TimeoutException($"Waited {Patience} for {what}.");
            }

            await Task.Delay(50);
        }
    }

    private static Task WithinTimeLimit(Func<Task> test) => test().WaitAsync(TimeLimit);

    /// <summary>
    /// Breaks the first response's body when told, as a dropped connection does; holds the client's resume request
    /// (the one with <c>Last-Event-ID</c>) until told, so the test can publish meanwhile.
    /// </summary>
    private sealed class HeldResume() : DelegatingHandler(new SocketsHttpHandler())
    {
        private readonly TaskCompletionSource _break = new(TaskCreationOptions.RunContinuationsAsynchronously);
        private readonly TaskCompletionSource _resumeAsked = new(TaskCreationOptions.RunContinuationsAsynchronously);
        private readonly TaskCompletionSource _letThrough = new(TaskCreationOptions.RunContinuationsAsynchronously);
        private int _resumes;

        public Task ResumeAsked => _resumeAsked.Task;

        public int Resumes => Volatile.Read(ref _resumes);

        public void Break() => _break.TrySetResult();

        public void LetResumeThrough() => _letThrough.TrySetResult();

        protected override async Task<HttpResponseMessage> SendAsync(HttpRequestMessage request, CancellationToken cancellationToken)
        {
            if (request.Headers.Contains("Last-Event-ID"))
            {
                Interlocked.Increment(ref _resumes);
                _resumeAsked.TrySetResult();
                await _letThrough.Task.WaitAsync(cancellationToken);
                return await base.SendAsync(request, cancellationToken);
            }

            var response = await base.SendAsync(request, cancellationToken);
            var body = await response.Content.ReadAsStreamAsync(cancellationToken);
            var broken = new StreamContent(new BreakableStream(body, _break.Task));
            foreach (var header in response.Content.Headers)
            {
                broken.Headers.TryAddWithoutValidation(header.Key, header.Value);
            }

            response.Content = broken;
            return response;
        }
    }
}
