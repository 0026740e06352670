using System.Diagnostics;

namespace StreamLoad;

/// <summary>
/// W4 and the client read rate: every reader receives <c>count</c> messages once per run, timed from the call to the
/// last message. The order rotates from run to run, so drift on a shared machine hits all alike and any two targets are
/// measured within seconds of each other in every run.
/// </summary>
internal static class TimedRuns
{
    /// <summary>The command line's <c>--count</c>, <c>--runs</c> and <c>--warmup</c> (default: up to 20,000 messages).</summary>
    public static (int Count, int Runs, int Warmup) Settings(Options options)
    {
        var count = options.Number("--count", 100_000);
        return (count, options.Number("--runs", 5), options.Number("--warmup", Math.Min(count, 20_000)));
    }

    /// <summary>
    /// Reads <paramref name="warmup"/> messages from every reader once, untimed, and drops a reader that fails: as not
    /// available when <paramref name="unavailable"/> gives a reason for its exception, else as a failure (the count is
    /// returned).
    /// </summary>
    public static async Task<int> WarmUpAsync(string bench, Dictionary<string, Func<int, CancellationToken, Task<long>>> readers, int warmup,
        JsonLines output, Func<Exception, string?>? unavailable = null)
    {
        var failed = 0;
        foreach (var target in readers.Keys.ToArray())
        {
            try
            {
                using var cts = new CancellationTokenSource(TimeSpan.FromSeconds(60));
                await readers[target](Math.Max(1, warmup), cts.Token);
            }
            catch (Exception ex)
            {
                readers.Remove(target);
                if (unavailable?.Invoke(ex) is { } reason)
                {
                    output.Write(new() { ["bench"] = bench, ["target"] = target, ["run"] = 0, ["available"] = false, ["reason"] = reason });
                }
                else
                {
                    failed++;
                    output.Write(new() { ["bench"] = bench, ["target"] = target, ["run"] = 0, ["error"] = ex.Message });
                }
            }
        }

        return failed;
    }

    /// <summary>Writes one record per measurement; returns how many failed (an error, or not all messages).</summary>
    public static async Task<int> RunAsync(string bench, IReadOnlyDictionary<string, Func<int, CancellationToken, Task<long>>> readers,
        int count, int runs, JsonLines output)
    {
        var failed = 0;
        var order = readers.Keys.ToArray();
        for (var run = 1; run <= runs; run++)
        {
            var shift = (run - 1) % Math.Max(1, order.Length);
            foreach (var target in order[shift..].Concat(order[..shift]))
            {
                var record = new Dictionary<string, object?> { ["bench"] = bench, ["target"] = target, ["run"] = run, ["count"] = count };
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

        return failed;
    }
}
