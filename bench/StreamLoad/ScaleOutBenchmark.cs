using System.Diagnostics;
using System.Net.Http.Json;
using System.Net.ServerSentEvents;
using System.Text.Json;
using Microsoft.AspNetCore.SignalR.Client;
using ProtoHttp.Bench.Streams;

namespace StreamLoad;

/// <summary>
/// W6 scale-out (BENCHMARKS.md, version 4): two instances (A and B) of one peer on one Redis, <c>--subscribers</c> on
/// each, one publisher posting <c>--rate</c> ticks a second to A. A window of <c>--seconds</c> measures the delay from
/// publish to receipt, the memory each instance holds per subscriber and the Redis commands per tick; then B is killed
/// and its subscribers come back on A (with <c>Last-Event-ID</c> for ProtoHttp; SignalR has no replay): the time until
/// every one has caught up, and the ticks each subscriber of A and of B lost or got twice against the publisher's
/// sequence. Errors are subscribers that could not subscribe or broke before the kill, and failed publishes.
/// </summary>
internal static class ScaleOutBenchmark
{
    public const string ProtoHttpWatch = "/ScaleOut.proto/Watch";

    public static readonly string[] All = ["protohttp-sse", "signalr-json"];

    public static async Task<int> RunAsync(Options options, JsonLines output)
    {
        var target = options.Text("--target", "protohttp-sse");
        var perInstance = options.Number("--subscribers", 2500);
        var seconds = options.Number("--seconds", 10);
        var rate = options.Number("--rate", 10);
        var parallel = options.Number("--connect-parallel", 500);
        var stormLimit = TimeSpan.FromSeconds(options.Number("--storm-seconds", 15));
        var settle = TimeSpan.FromSeconds(options.Number("--settle-seconds", 120));
        var redisPort = options.Number("--redis-port", 6379);
        var killPid = options.Number("--kill-pid", 0);
        if (!All.Contains(target))
        {
            throw new ArgumentException($"Unknown W6 target '{target}'; known: {string.Join(", ", All)}.");
        }

        using var a = new Peers(new Uri(options.Text("--a", "http://127.0.0.1:5301")), new Uri(options.Text("--a", "http://127.0.0.1:5301")));
        using var b = new Peers(new Uri(options.Text("--b", "http://127.0.0.1:5303")), new Uri(options.Text("--b", "http://127.0.0.1:5303")));
        Peers[] instances = [a, b];
        var record = new Dictionary<string, object?>
        {
            ["bench"] = "w6", ["target"] = target, ["subscribers"] = 2 * perInstance, ["seconds"] = seconds, ["rate"] = rate,
        };
        var baseline = await Task.WhenAll(StatsAsync(a), StatsAsync(b));

        using var stop = new CancellationTokenSource();
        var publisher = new ScaleOutPublisher(a.Http1, TimeSpan.FromSeconds(1.0 / rate));
        using var stopPublishing = new CancellationTokenSource();
        var publishing = publisher.RunAsync(stopPublishing.Token);

        var recorder = new FanOutRecorder();
        var killed = new TaskCompletionSource(TaskCreationOptions.RunContinuationsAsynchronously);
        using var gate = new SemaphoreSlim(parallel);
        var subscribers = new ScaleOutSubscriber[2 * perInstance];
        var tasks = new Task[subscribers.Length];
        var connectWatch = Stopwatch.StartNew();
        for (var i = 0; i < subscribers.Length; i++)
        {
            subscribers[i] = new ScaleOutSubscriber(recorder, i % 2);
            var subscriber = subscribers[i];
            tasks[i] = target == "protohttp-sse"
                ? RunEventsAsync(subscriber, instances, publisher, recorder, gate, killed.Task, stop.Token)
                : RunHubAsync(subscriber, instances, publisher, recorder, gate, settle, killed.Task, stop.Token);
        }

        while (recorder.Ready + recorder.Errors < subscribers.Length && connectWatch.Elapsed < settle)
        {
            await Task.Delay(100);
        }

        record["connect_seconds"] = connectWatch.Elapsed.TotalSeconds;
        record["ready"] = recorder.Ready;
        await Task.Delay(1000);

        // The window: delays, and Redis's commands and each instance's collections and allocations per tick.
        var before = await Task.WhenAll(StatsAsync(a), StatsAsync(b));
        var commandsBefore = await RedisCommandStats.ReadAsync(redisPort);
        var publishedBefore = publisher.Latest;
        recorder.Measuring = true;
        var window = Stopwatch.StartNew();
        await Task.Delay(TimeSpan.FromSeconds(seconds));
        recorder.Measuring = false;
        var elapsed = window.Elapsed.TotalSeconds;
        var commands = RedisCommandStats.Between(commandsBefore, await RedisCommandStats.ReadAsync(redisPort));
        var published = Math.Max(1, publisher.Latest - publishedBefore);
        var held = await Task.WhenAll(StatsAsync(a), StatsAsync(b));

        record["delivered"] = recorder.Delivered;
        record["rate_delivered"] = recorder.Delivered / elapsed;
        record["ticks"] = published;
        record["missed"] = recorder.Missed;
        record["p50_ms"] = recorder.DelayMs(0.50);
        record["p99_ms"] = recorder.DelayMs(0.99);
        record["max_ms"] = recorder.DelayMs(1.0);
        record["server_held"] = held[0].Subscribers + held[1].Subscribers;
        // Per subscriber the instances hold (all of them, unless some could not subscribe: then the run has errors).
        var heldCount = Math.Max(1, held[0].Subscribers + held[1].Subscribers);
        record["ws_per_sub"] = (held.Sum(s => s.WorkingSet) - baseline.Sum(s => s.WorkingSet)) / (double)heldCount;
        record["heap_per_sub"] = (held.Sum(s => s.GcHeap) - baseline.Sum(s => s.GcHeap)) / (double)heldCount;
        record["redis_commands"] = commands;
        record["redis_calls_per_msg"] = commands.Values.Sum() / (double)published;
        // Commands the instances sent (a script is one, whatever it runs inside): round trips to Redis. ProtoHttp runs
        // every command in a script (append, read); SignalR sends one PUBLISH.
        record["redis_sent_per_msg"] = (target == "protohttp-sse"
            ? commands.GetValueOrDefault("evalsha") + commands.GetValueOrDefault("eval")
            : commands.GetValueOrDefault("publish")) / (double)published;
        // ProtoHttp reads a topic with one script (XRANGE and GET); GET runs in no other script but the tail's, once
        // per topic per instance at its start. SignalR's instances read nothing: Redis pushes to their subscription.
        record["redis_reads_per_msg_per_instance"] = target == "protohttp-sse" ? commands.GetValueOrDefault("get") / (double)published / 2 : 0.0;
        record["alloc_per_msg_per_instance"] = (held.Sum(s => s.AllocatedBytes) - before.Sum(s => s.AllocatedBytes)) / (double)published / 2;
        record["alloc_per_delivery"] = (held.Sum(s => s.AllocatedBytes) - before.Sum(s => s.AllocatedBytes)) / (double)Math.Max(1, recorder.Delivered);
        // Each /stats collects twice (full, forced) after it counts: the window's own collections are the rest.
        const int Forced = 2 * 2;
        record["gc_gen0"] = held.Sum(s => s.Gen0) - before.Sum(s => s.Gen0) - Forced;
        record["gc_gen1"] = held.Sum(s => s.Gen1) - before.Sum(s => s.Gen1) - Forced;
        record["gc_gen2"] = held.Sum(s => s.Gen2) - before.Sum(s => s.Gen2) - Forced;
        record["server_cpu_per_second"] = (held.Sum(s => s.CpuSeconds) - before.Sum(s => s.CpuSeconds)) / elapsed;

        // The storm: B dies; its subscribers come back on A.
        var killNs = StreamWorkload.NowNs();
        killed.TrySetResult();
        if (killPid > 0)
        {
            using var victim = Process.GetProcessById(killPid);
            victim.Kill();
        }

        var storm = subscribers.Where(s => s.Storm).ToArray();
        var stormWatch = Stopwatch.StartNew();
        while (storm.Any(s => s.CaughtUpNs == 0) && stormWatch.Elapsed < stormLimit)
        {
            await Task.Delay(20);
        }

        // Two more seconds live, then the publisher stops and the last ticks arrive.
        await Task.Delay(2000);
        await stopPublishing.CancelAsync();
        await publishing;
        // The last ticks still on their way (delays reach seconds on a loud machine) are not lost: wait for them.
        var lastPublished = publisher.Latest;
        var drain = Stopwatch.StartNew();
        while (subscribers.Any(s => s.Newest < lastPublished) && drain.Elapsed < stormLimit)
        {
            await Task.Delay(50);
        }

        await stop.CancelAsync();
        var caughtUp = storm.Where(s => s.CaughtUpNs > 0).Select(s => (s.CaughtUpNs - killNs) / 1e9).Order().ToArray();
        var stormCounts = storm.Select(s => s.Count(lastPublished)).ToArray();
        var stayedCounts = subscribers.Where(s => !s.Storm).Select(s => s.Count(lastPublished)).ToArray();
        record["storm_subscribers"] = storm.Length;
        record["storm_caught_up"] = caughtUp.Length;
        record["storm_within_5s"] = caughtUp.Count(t => t <= 5);
        record["storm_seconds"] = caughtUp.Length == storm.Length && caughtUp.Length > 0 ? caughtUp[^1] : null;
        record["storm_p50_seconds"] = caughtUp.Length > 0 ? caughtUp[caughtUp.Length / 2] : null;
        record["storm_lost"] = stormCounts.Sum(c => c.Lost);
        record["storm_lost_subscribers"] = stormCounts.Count(c => c.Lost > 0);
        record["storm_doubled"] = stormCounts.Sum(c => c.Doubled);
        record["stayed_lost"] = stayedCounts.Sum(c => c.Lost);
        record["stayed_doubled"] = stayedCounts.Sum(c => c.Doubled);
        record["gaps"] = subscribers.Sum(s => s.Gaps);
        record["published"] = lastPublished;

        await Task.WhenAny(Task.WhenAll(tasks), Task.Delay(TimeSpan.FromSeconds(30)));
        var errors = recorder.Errors + Math.Max(0, subscribers.Length - recorder.Ready - recorder.Errors) + publisher.Errors;
        record["errors"] = errors;
        record["first_error"] = recorder.FirstError ?? publisher.FirstError
            ?? (errors > 0 ? $"{subscribers.Length - recorder.Ready} subscribers got no tick in {settle.TotalSeconds} s" : null);
        output.Write(record);
        return errors == 0 && recorder.Delivered > 0 ? 0 : 1;
    }

    private static async Task<ServerStats> StatsAsync(Peers peers) =>
        await peers.Http1.GetFromJsonAsync("/stats", StreamJson.Default.ScaleOutStats) is { } stats
            ? new ServerStats(stats)
            : throw new InvalidDataException("/stats answered nothing.");

    /// <summary>
    /// Keeps <paramref name="subscriber"/> subscribed until the run ends: <paramref name="subscribeOnce"/> subscribes
    /// (told whether it is the first time) and returns when the subscription ends. Before the kill an end is an error;
    /// after it the subscriber comes back on A, at once and again until A answers.
    /// </summary>
    private static async Task KeepSubscribedAsync(
        ScaleOutSubscriber subscriber, FanOutRecorder recorder, Task killed, Func<bool, Task> subscribeOnce, CancellationToken stop)
    {
        var first = true;
        while (!stop.IsCancellationRequested)
        {
            try
            {
                await subscribeOnce(first);
                if (!stop.IsCancellationRequested && !killed.IsCompleted)
                {
                    throw new InvalidDataException("The stream ended while the subscriber was still listening.");
                }
            }
            catch (OperationCanceledException) when (stop.IsCancellationRequested)
            {
                return;
            }
            catch (Exception ex) when (!stop.IsCancellationRequested && !killed.IsCompleted)
            {
                recorder.Error(ex);
                return;
            }
            catch (Exception) when (!stop.IsCancellationRequested)
            {
                // Its instance died (or A did not answer yet): come back on A.
                await Task.Delay(50, CancellationToken.None);
            }

            first = false;
            if (killed.IsCompleted)
            {
                subscriber.Home = 0;
            }
        }
    }

    /// <summary>An SSE subscriber of ProtoHttp's topic; it comes back with the id of the last event it read.</summary>
    private static Task RunEventsAsync(
        ScaleOutSubscriber subscriber, Peers[] instances, ScaleOutPublisher publisher, FanOutRecorder recorder, SemaphoreSlim gate, Task killed, CancellationToken stop) =>
        KeepSubscribedAsync(subscriber, recorder, killed, async first =>
        {
            using var request = new HttpRequestMessage(HttpMethod.Get, ProtoHttpWatch);
            request.Headers.Accept.ParseAdd("text/event-stream");
            if (subscriber.LastEventId is { } id)
            {
                request.Headers.TryAddWithoutValidation("Last-Event-ID", id);
            }

            using var response = first
                ? await FanOutBenchmark.OpenAsync(instances[subscriber.Home].Http1, request, gate, stop)
                : await Peers.SendAsync(instances[subscriber.Home].Http1, request, stop);
            if (!first)
            {
                subscriber.CameBack(publisher.Latest);
            }

            await using var body = await response.Content.ReadAsStreamAsync(stop);
            var parser = SseParser.Create(body, static (type, data) => type is "end" or "gap" ? null : JsonSerializer.Deserialize(data, StreamJson.Default.TickDto));
            await foreach (var item in parser.EnumerateAsync(stop))
            {
                if (item.EventType == "gap")
                {
                    subscriber.Gaps++;
                    continue;
                }

                if (item.EventType == "end")
                {
                    return;
                }

                var tick = item.Data ?? throw new InvalidDataException("An empty tick.");
                Check.Notification(tick.Notification);
                subscriber.Received(tick.Sequence, tick.PublishedNs);
                subscriber.LastEventId = item.EventId;
            }
        }, stop);

    /// <summary>A SignalR client; it comes back with a new connection (SignalR replays nothing).</summary>
    private static Task RunHubAsync(
        ScaleOutSubscriber subscriber, Peers[] instances, ScaleOutPublisher publisher, FanOutRecorder recorder, SemaphoreSlim gate, TimeSpan settle, Task killed, CancellationToken stop) =>
        KeepSubscribedAsync(subscriber, recorder, killed, async first =>
        {
            await using var hub = instances[subscriber.Home].Hub(messagePack: false, handshakeTimeout: settle);
            var closed = FanOutBenchmark.OnTicks(hub, subscriber.Received);
            if (first)
            {
                await gate.WaitAsync(stop);
            }

            try
            {
                await hub.StartAsync(stop);
            }
            finally
            {
                if (first)
                {
                    gate.Release();
                }
            }

            if (!first)
            {
                subscriber.CameBack(publisher.Latest);
            }

            if (await Task.WhenAny(closed, Task.Delay(Timeout.Infinite, stop)) == closed && !killed.IsCompleted)
            {
                throw closed.Result ?? new InvalidDataException("The server closed the hub connection.");
            }
        }, stop);

    /// <summary>One instance's <c>/stats</c>, named as the benchmark reads it.</summary>
    private readonly record struct ServerStats(long WorkingSet, long GcHeap, int Subscribers, int Gen0, int Gen1, int Gen2, long AllocatedBytes, double CpuSeconds)
    {
        public ServerStats(ScaleOutStats s)
            : this(s.WorkingSet, s.GcHeap, s.Subscribers, s.Gen0, s.Gen1, s.Gen2, s.AllocatedBytes, s.CpuSeconds)
        {
        }
    }
}
