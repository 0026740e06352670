using System.Diagnostics;
using System.Net.Http.Json;
using Grpc.Net.Client;
using ProtoHttp.Bench.Streams.Duplex;
using ProtoHttp.Client;

namespace StreamLoad.Duplex;

/// <summary>
/// W7: a bidirectional echo of W3's messages. On one call: a warm-up, then a window of round trips with one message in
/// flight. Then <c>--sockets</c> calls at once: the server's memory after a full collection before any of them and
/// with all of them open and idle (each has made one round trip), then a window in which every call makes round trips
/// one at a time. Writes one JSON line per size; any error fails it.
/// </summary>
internal static class DuplexBenchmark
{
    public static readonly string[] All = ["protohttp-ws", "protohttp-ws-h2c", "typed-ws", "grpc-h2c", "signalr-json", "signalr-msgpack"];

    public static async Task<int> RunAsync(Peers peers, Options options, JsonLines output)
    {
        var target = options.Text("--target", "protohttp-ws");
        var sockets = options.Number("--sockets", 1000);
        var seconds = options.Number("--seconds", 5);
        var warmup = options.Number("--warmup-seconds", 2);
        var parallel = options.Number("--connect-parallel", 100);
        if (!All.Contains(target))
        {
            throw new ArgumentException($"Unknown W7 target '{target}'; known: {string.Join(", ", All)}.");
        }

        using var channel = GrpcChannel.ForAddress(peers.H2cAddress, new GrpcChannelOptions
        {
            HttpHandler = new SocketsHttpHandler { EnableMultipleHttp2Connections = true },
        });
        var typed = new DuplexService.DuplexServiceClient(new ProtoHttpCallInvoker(peers.Http1, new ProtoHttpClientOptions { RequestStreamsOverWebSocket = true }));
        var grpc = new DuplexService.DuplexServiceClient(channel);
        // WebSockets over h2c (RFC 8441): one handler, whose connections carry the calls as streams (100 each).
        using var h2c = new HttpMessageInvoker(new SocketsHttpHandler { EnableMultipleHttp2Connections = true, UseProxy = false });
        EchoCall NewCall() => target switch
        {
            "protohttp-ws" => new RawWebSocketCall(peers.Http1Address),
            "protohttp-ws-h2c" => new RawWebSocketCall(peers.H2cAddress, h2c),
            "typed-ws" => new GeneratedClientCall(typed),
            "grpc-h2c" => new GeneratedClientCall(grpc),
            _ => new HubCall(peers.Hub(messagePack: target == "signalr-msgpack", handshakeTimeout: TimeSpan.FromSeconds(60), DuplexWorkload.HubPath)),
        };

        var failed = 0;
        var one = await MeasureAsync(peers, target, 1, seconds, warmup, parallel, NewCall);
        output.Write(one);
        failed += one["errors"] is 0L ? 0 : 1;
        if (sockets > 1)
        {
            var many = await MeasureAsync(peers, target, sockets, seconds, warmup: 1, parallel, NewCall);
            output.Write(many);
            failed += many["errors"] is 0L ? 0 : 1;
        }

        return failed;
    }

    private static async Task<Dictionary<string, object?>> MeasureAsync(
        Peers peers, string target, int count, int seconds, int warmup, int parallel, Func<EchoCall> newCall)
    {
        var record = new Dictionary<string, object?> { ["bench"] = "w7", ["target"] = target, ["sockets"] = count, ["seconds"] = seconds };
        var recorder = new RoundTripRecorder();
        var calls = new EchoCall[count];
        using var limit = new CancellationTokenSource(TimeSpan.FromMinutes(3));
        var baseline = await StatsAsync(peers);

        // Open every call, a batch at a time; each makes one round trip, then waits idle.
        using var gate = new SemaphoreSlim(parallel);
        var connect = Stopwatch.StartNew();
        var opened = await Task.WhenAll(Enumerable.Range(0, count).Select(async i =>
        {
            await gate.WaitAsync(limit.Token);
            try
            {
                calls[i] = newCall();
                await calls[i].OpenAsync(limit.Token);
                return true;
            }
            catch (Exception ex)
            {
                recorder.Error(ex);
                return false;
            }
            finally
            {
                gate.Release();
            }
        }));
        record["connect_seconds"] = connect.Elapsed.TotalSeconds;
        var open = calls.Where((_, i) => opened[i]).ToArray();
        var held = await StatsAsync(peers);

        // Every open call makes round trips, one message in flight, until told to stop; the window counts those that end
        // inside it.
        using var stop = new CancellationTokenSource();
        var loops = open.Select(call => LoopAsync(call, recorder, stop.Token)).ToArray();
        await Task.Delay(TimeSpan.FromSeconds(warmup));
        var before = await CountersAsync(peers);
        recorder.Measuring = true;
        var window = Stopwatch.StartNew();
        await Task.Delay(TimeSpan.FromSeconds(seconds));
        recorder.Measuring = false;
        var elapsed = window.Elapsed.TotalSeconds;
        var after = await CountersAsync(peers);
        stop.Cancel();
        await Task.WhenAll(loops);

        // Every call ends as a client ends it: a half-close, and the server's successful end.
        await Task.WhenAll(open.Select(async call =>
        {
            try
            {
                await call.CompleteAsync(limit.Token);
            }
            catch (Exception ex)
            {
                recorder.Error(ex);
            }
            finally
            {
                await call.DisposeAsync();
            }
        }));

        record["errors"] = recorder.Errors;
        record["first_error"] = recorder.FirstError;
        record["round_trips"] = recorder.Count;
        record["rate"] = recorder.Count / elapsed;
        record["p50_ms"] = recorder.Quantile(0.50);
        record["p99_ms"] = recorder.Quantile(0.99);
        record["max_ms"] = recorder.Quantile(1.0);
        record["server_held"] = held.DuplexCalls;
        if (held.DuplexCalls != open.Length)
        {
            recorder.Error(new InvalidDataException($"The server held {held.DuplexCalls} echo calls, not the {open.Length} open."));
            record["errors"] = recorder.Errors;
            record["first_error"] = recorder.FirstError;
        }

        // Where the time and memory go, per round trip in the window: both processes' CPU and allocations, the server's
        // collections (the /counters calls themselves are two requests among thousands).
        var roundTrips = Math.Max(1, recorder.Count);
        record["server_cpu_us"] = (after.Server.CpuMs - before.Server.CpuMs) * 1000 / roundTrips;
        record["server_alloc"] = (after.Server.AllocatedBytes - before.Server.AllocatedBytes) / (double)roundTrips;
        record["server_gc"] = new[] { after.Server.Gen0 - before.Server.Gen0, after.Server.Gen1 - before.Server.Gen1, after.Server.Gen2 - before.Server.Gen2 };
        record["client_cpu_us"] = (after.ClientCpuMs - before.ClientCpuMs) * 1000 / roundTrips;
        record["client_alloc"] = (after.ClientAllocated - before.ClientAllocated) / (double)roundTrips;
        record["ws_per_socket"] = (held.WorkingSet - baseline.WorkingSet) / (double)count;
        record["heap_per_socket"] = (held.GcHeap - baseline.GcHeap) / (double)count;
        return record;
    }

    private static async Task LoopAsync(EchoCall call, RoundTripRecorder recorder, CancellationToken stop)
    {
        try
        {
            while (!stop.IsCancellationRequested)
            {
                var start = Stopwatch.GetTimestamp();
                // The round trip itself is never cancelled half-way: the call must stay usable for its half-close.
                await call.RoundTripAsync(CancellationToken.None);
                recorder.Record(start);
            }
        }
        catch (Exception ex)
        {
            recorder.Error(ex);
        }
    }

    private static async Task<(ServerCounters Server, double ClientCpuMs, long ClientAllocated)> CountersAsync(Peers peers)
    {
        var server = await peers.Http1.GetFromJsonAsync("/counters", StreamJson.Default.ServerCounters) ?? throw new InvalidDataException("/counters answered nothing.");
        using var process = Process.GetCurrentProcess();
        return (server, process.TotalProcessorTime.TotalMilliseconds, GC.GetTotalAllocatedBytes(precise: false));
    }

    private static async Task<ServerStats> StatsAsync(Peers peers) =>
        await peers.Http1.GetFromJsonAsync("/stats", StreamJson.Default.ServerStats) ?? throw new InvalidDataException("/stats answered nothing.");
}
