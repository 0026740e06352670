namespace StreamLoad;

/// <summary>
/// W4: one client receives <c>count</c> notifications over one stream, timed from sending the request to the last
/// message (the connection is open beforehand: a keep-alive HTTP connection, or SignalR's WebSocket), in
/// <see cref="TimedRuns"/>.
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

            failed += await TimedRuns.RunAsync("w4", readers, count, runs, output);
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
