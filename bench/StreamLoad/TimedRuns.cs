using System.Diagnostics;

namespace StreamLoad;

/// <summary>
/// W4 and the client read rate: every reader receives <c>count</c> messages once per run, timed from the call to the
/// last message. The order rotates from run to run, so drift on a shared machine hits all alike and any two targets are
/// measured within seconds of each other in every run.
/// </summary>
internal static class TimedRuns
{
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
