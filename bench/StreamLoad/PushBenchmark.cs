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
        var (count, runs, warmup) = TimedRuns.Settings(options);
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
                }
                catch (Exception ex) when (ex is not ArgumentException)
                {
                    failed++;
                    output.Write(new() { ["bench"] = "w4", ["target"] = target, ["run"] = 0, ["error"] = ex.Message });
                }
            }

            failed += await TimedRuns.WarmUpAsync("w4", readers, warmup, output);
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
