using System.Diagnostics;
using System.Net.ServerSentEvents;
using System.Net.Http.Json;
using System.Text.Json;
using Microsoft.AspNetCore.SignalR.Client;
using ProtoHttp.Bench.Streams;

namespace StreamLoad;

/// <summary>
/// W5: <c>subscribers</c> clients of one ticker, held at once. The server's memory is read (after a full collection)
/// before any subscriber and again with all of them held. They subscribe while the ticker ticks slowly
/// (<c>--connect-tick-ms</c>: a response starts with its first tick, and a saturated server would starve the newcomers);
/// once every subscriber has its first tick the ticker goes to <c>--tick-ms</c>, and a window of <c>seconds</c> counts the ticks delivered, their publish-to-receipt delay and any missed. Errors are subscribers that
/// could not subscribe or whose stream broke; there must be none.
/// </summary>
internal static class FanOutBenchmark
{
    public static readonly string[] All = ["sse-h1", "sse-h2c", "raw-sse-h1", "raw-sse-h2c", "envelopes-h1", "grpc-h2c", "signalr-json", "signalr-msgpack"];

    public static async Task<int> RunAsync(Peers peers, Options options, JsonLines output)
    {
        var target = options.Text("--target", "sse-h1");
        var subscribers = options.Number("--subscribers", 1000);
        var seconds = options.Number("--seconds", 10);
        // Subscribers connect at most this many at a time: SignalR's server closes a connection whose handshake has not
        // arrived within 15 s (its HandshakeTimeout), and 1,000 at once on a shared core exceeded it.
        var parallel = options.Number("--connect-parallel", 100);
        var connectTickMs = options.Number("--connect-tick-ms", 500);
        var tickMs = options.Number("--tick-ms", 100);
        var settle = TimeSpan.FromSeconds(options.Number("--settle-seconds", 240));
        if (!All.Contains(target))
        {
            throw new ArgumentException($"Unknown W5 target '{target}'; known: {string.Join(", ", All)}.");
        }

        var record = new Dictionary<string, object?>
        {
            ["bench"] = "w5", ["target"] = target, ["subscribers"] = subscribers, ["seconds"] = seconds, ["tick_ms"] = tickMs,
        };
        var baseline = await StatsAsync(peers);
        await SetTickerAsync(peers, connectTickMs);
        var recorder = new FanOutRecorder();
        using var stop = new CancellationTokenSource();
        using var gate = new SemaphoreSlim(parallel);
        var connectWatch = Stopwatch.StartNew();
        var tasks = new Task[subscribers];
        for (var i = 0; i < subscribers; i++)
        {
            tasks[i] = SubscribeAsync(target, peers, recorder, gate, settle, stop.Token);
        }

        // Every subscriber has its first tick, or has failed, or the settle time is up.
        while (recorder.Ready + recorder.Errors < subscribers && connectWatch.Elapsed < settle)
        {
            await Task.Delay(100);
        }

        record["connect_seconds"] = connectWatch.Elapsed.TotalSeconds;
        record["ready"] = recorder.Ready;
        await SetTickerAsync(peers, tickMs);
        await Task.Delay(Math.Max(1000, 2 * connectTickMs));

        recorder.Measuring = true;
        var window = Stopwatch.StartNew();
        await Task.Delay(TimeSpan.FromSeconds(seconds));
        recorder.Measuring = false;
        var elapsed = window.Elapsed.TotalSeconds;

        var held = await StatsAsync(peers);
        stop.Cancel();
        var drained = Task.WhenAll(tasks);
        await Task.WhenAny(drained, Task.Delay(TimeSpan.FromSeconds(30)));

        var errors = recorder.Errors + Math.Max(0, subscribers - recorder.Ready - recorder.Errors);
        var offered = recorder.TicksInWindow * subscribers;
        record["errors"] = errors;
        record["first_error"] = recorder.FirstError ?? (errors > 0 ? $"{subscribers - recorder.Ready} subscribers got no tick in {settle.TotalSeconds} s" : null);
        record["delivered"] = recorder.Delivered;
        record["rate"] = recorder.Delivered / elapsed;
        record["ticks"] = recorder.TicksInWindow;
        record["delivered_ratio"] = offered > 0 ? (double)recorder.Delivered / offered : null;
        record["missed"] = recorder.Missed;
        record["p50_ms"] = recorder.DelayMs(0.50);
        record["p99_ms"] = recorder.DelayMs(0.99);
        record["max_ms"] = recorder.DelayMs(1.0);
        record["server_held"] = held.StreamSubscribers + held.HubClients;
        record["ws_per_sub"] = (held.WorkingSet - baseline.WorkingSet) / (double)subscribers;
        record["heap_per_sub"] = (held.GcHeap - baseline.GcHeap) / (double)subscribers;
        record["ws_baseline"] = baseline.WorkingSet;
        record["heap_baseline"] = baseline.GcHeap;
        output.Write(record);
        return errors == 0 && recorder.Delivered > 0 ? 0 : 1;
    }

    private static async Task SetTickerAsync(Peers peers, int ms)
    {
        using var response = await peers.Http1.PostAsync($"/ticker?ms={ms}", content: null);
        response.EnsureSuccessStatusCode();
    }

    private static async Task<ServerStats> StatsAsync(Peers peers) =>
        await peers.Http1.GetFromJsonAsync("/stats", StreamJson.Default.ServerStats) ?? throw new InvalidDataException("/stats answered nothing.");

    private static async Task SubscribeAsync(string target, Peers peers, FanOutRecorder recorder, SemaphoreSlim gate, TimeSpan settle, CancellationToken stop)
    {
        var subscriber = new FanOutRecorder.Subscriber(recorder);
        try
        {
            switch (target)
            {
                case "sse-h1":
                case "sse-h2c":
                    await ReadEventsAsync(target == "sse-h1" ? peers.Http1 : peers.H2c, StreamWorkload.ProtoHttpSubscribe, subscriber, gate, stop);
                    break;
                case "raw-sse-h1":
                case "raw-sse-h2c":
                    // The floor: the same events from a plain Kestrel endpoint, read the same way.
                    await ReadEventsAsync(target == "raw-sse-h1" ? peers.Http1 : peers.H2c, StreamWorkload.RawEvents, subscriber, gate, stop);
                    break;
                case "envelopes-h1":
                case "grpc-h2c":
                    await ReadFramesAsync(target == "grpc-h2c", peers, subscriber, gate, stop);
                    break;
                default:
                    await ReadHubAsync(peers.Hub(messagePack: target == "signalr-msgpack", handshakeTimeout: settle), subscriber, gate, stop);
                    break;
            }

            if (!stop.IsCancellationRequested)
            {
                throw new InvalidDataException("The stream ended while the subscriber was still listening.");
            }
        }
        catch (OperationCanceledException) when (stop.IsCancellationRequested)
        {
            // The run is over.
        }
        catch (Exception ex) when (!stop.IsCancellationRequested)
        {
            recorder.Error(ex);
        }
        catch (Exception)
        {
            // Torn down at the end of the run.
        }
    }

    /// <summary>
    /// Hands each <c>tick</c> of <paramref name="hub"/>, checked, to <paramref name="received"/> (sequence, publish stamp);
    /// the task completes when the connection closes, with what closed it.
    /// </summary>
    public static Task<Exception?> OnTicks(HubConnection hub, Action<long, long> received)
    {
        var closed = new TaskCompletionSource<Exception?>(TaskCreationOptions.RunContinuationsAsynchronously);
        hub.Closed += ex =>
        {
            closed.TrySetResult(ex);
            return Task.CompletedTask;
        };
        hub.On<TickDto>("tick", tick =>
        {
            Check.Notification(tick.Notification);
            received(tick.Sequence, tick.PublishedNs);
        });
        return closed.Task;
    }

    /// <summary>Sends <paramref name="request"/> once <paramref name="gate"/> lets it: subscribers connect so many at a time.</summary>
    public static async Task<HttpResponseMessage> OpenAsync(HttpClient client, HttpRequestMessage request, SemaphoreSlim gate, CancellationToken stop)
    {
        await gate.WaitAsync(stop);
        try
        {
            return await Peers.SendAsync(client, request, stop);
        }
        finally
        {
            gate.Release();
        }
    }

    private static async Task ReadEventsAsync(HttpClient client, string path, FanOutRecorder.Subscriber subscriber, SemaphoreSlim gate, CancellationToken stop)
    {
        using var request = new HttpRequestMessage(HttpMethod.Get, path);
        request.Headers.Accept.ParseAdd("text/event-stream");
        using var response = await OpenAsync(client, request, gate, stop);
        await using var body = await response.Content.ReadAsStreamAsync(stop);
        var parser = SseParser.Create(body, static (type, data) => type == "end" ? null : JsonSerializer.Deserialize(data, StreamJson.Default.TickDto));
        await foreach (var item in parser.EnumerateAsync(stop))
        {
            if (item.EventType == "end")
            {
                throw new InvalidDataException("The subscription ended.");
            }

            var tick = item.Data ?? throw new InvalidDataException("An empty tick.");
            Check.Notification(tick.Notification);
            subscriber.Received(tick.Sequence, tick.PublishedNs);
        }
    }

    private static async Task ReadFramesAsync(bool grpc, Peers peers, FanOutRecorder.Subscriber subscriber, SemaphoreSlim gate, CancellationToken stop)
    {
        using var request = grpc
            ? Peers.Post(StreamWorkload.RpcSubscribe, new SubscribeRequest(), "application/grpc", "", framed: true)
            : Peers.Post(StreamWorkload.ProtoHttpSubscribe, new SubscribeRequest(), "application/x-protobuf", "application/connect+proto", framed: false);
        using var response = await OpenAsync(grpc ? peers.H2c : peers.Http1, request, gate, stop);
        await using var body = await response.Content.ReadAsStreamAsync(stop);
        await EnvelopeReader.ReadAllAsync(body, (flags, payload) =>
        {
            if ((flags & EnvelopeReader.EndStreamFlag) != 0)
            {
                throw new InvalidDataException("The subscription ended.");
            }

            var tick = Tick.Parser.ParseFrom(payload);
            Check.Notification(tick.Notification);
            subscriber.Received(tick.Sequence, tick.PublishedNs);
        }, stop);
    }

    private static async Task ReadHubAsync(HubConnection hub, FanOutRecorder.Subscriber subscriber, SemaphoreSlim gate, CancellationToken stop)
    {
        await using (hub)
        {
            var closed = OnTicks(hub, subscriber.Received);
            await gate.WaitAsync(stop);
            try
            {
                await hub.StartAsync(stop);
            }
            finally
            {
                gate.Release();
            }

            var ended = await Task.WhenAny(closed, Task.Delay(Timeout.Infinite, stop));
            if (ended == closed)
            {
                throw closed.Result ?? new InvalidDataException("The server closed the hub connection.");
            }

            await ended; // throws OperationCanceledException at the end of the run
        }
    }
}
