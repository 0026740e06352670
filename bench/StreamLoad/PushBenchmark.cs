using System.Diagnostics;

namespace StreamLoad;

/// <summary>
/// W4: one client receives <c>count</c> notifications over one stream, timed from sending the request to the last
/// message (the connection is open beforehand: a keep-alive HTTP connection, or SignalR's WebSocket). Each run measures
/// every target once, in a rotated order, so drift on a shared machine hits all alike.
/// </summary>
internal static class PushBenchmark
{
    public static async Task<int> RunAsync(Peers peers, Options options, JsonLines output)
    {
        var count = options.Number("--count", 100_000);
        var runs = options.Number("--runs", 5);
        var warmup = options.Number("--warmup", Math.Min(count, 20_000));
        var targets = options.Text("--targets", string.Join(",", PushTargets.All)).Split(',', StringSplitOptions.RemoveEmptyEntries);
        var owned = new List<IAsyncDisposable>();
        var readers = new Dictionary<string, Func<int, CancellationToken, Task<long>>>();
        var failed = 0;
        try
        {
            foreach (var target in targets)
            {
                try
                {
                    readers[target] = await PushTargets.CreateAsync(target, peers, owned);
                    if (warmup > 0)
                    {
                        using var cts = new CancellationTokenSource(TimeSpan.FromSeconds(60));
                        await readers[target](warmup, cts.Token);
                    }
                }
                catch (Exception ex) when (ex is not ArgumentException)
                {
                    failed++;
                    readers.Remove(target);
                    output.Write(new() { ["bench"] = "w4", ["target"] = target, ["run"] = 0, ["error"] = ex.Message });
                }
            }

            for (var run = 1; run <= runs; run++)
            {
                var order = targets.Where(readers.ContainsKey).ToArray();
                var shift = (run - 1) % Math.Max(1, order.Length);
                foreach (var target in order[shift..].Concat(order[..shift]))
                {
                    var record = new Dictionary<string, object?> { ["bench"] = "w4", ["target"] = target, ["run"] = run, ["count"] = count };
                    try
                    {
                        using var cts = new CancellationTokenSource(TimeSpan.FromSeconds(120));
                        var watch = Stopwatch.StartNew();
                        var received = await readers[target](count, cts.Token);
                        var seconds = watch.Elapsed.TotalSeconds;
                        record["received"] = received;
                        record["seconds"] = seconds;
                        record["rate"] = received / seconds;
                        if (received != count)
                        {
                            record["error"] = $"received {received} of {count}";
                            failed++;
                        }
                    }
                    catch (Exception ex)
                    {
                        record["error"] = ex.Message;
                        failed++;
                    }

                    output.Write(record);
                }
            }
        }
        finally
        {
            foreach (var item in owned)
            {
                await item.DisposeAsync();
            }
        }

        return failed == 0 ? 0 : 1;
    }
}
