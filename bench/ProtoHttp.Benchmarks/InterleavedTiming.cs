using System.Diagnostics;
using System.Globalization;
using System.Reflection;
using BenchmarkDotNet.Attributes;

namespace ProtoHttp.Benchmarks;

/// <summary>
/// Time ratios that a shared, drifting machine cannot spoil: runs the named benchmarks in short blocks, one block of
/// each in turn (the order rotating), many times over, and reports each benchmark's time per call as the median of its
/// blocks, and its ratio to the first benchmark as the median (and the quartiles) of the ratios of blocks run side by
/// side. BenchmarkDotNet runs one benchmark after another, seconds apart, so load that comes and goes lands on some
/// benchmarks and not on others; here it lands on all alike.
/// </summary>
/// <remarks><c>--interleave HandlerBenchmarks.Search_MessagesOnly,HandlerBenchmarks.Search_Protobuf [--blocks N] [--calls M]</c></remarks>
internal static class InterleavedTiming
{
    public static int Run(string benchmarks, int blocks, int callsPerBlock)
    {
        var names = benchmarks.Split(',');
        var calls = new List<Func<Task>>();
        var cleanups = new List<Action>();
        foreach (var name in names)
        {
            var (typeName, methodName) = (name[..name.LastIndexOf('.')], name[(name.LastIndexOf('.') + 1)..]);
            var type = typeof(InterleavedTiming).Assembly.GetType("ProtoHttp.Benchmarks." + typeName, throwOnError: true)!;
            var instance = Activator.CreateInstance(type)!;
            foreach (var setup in type.GetMethods().Where(m => m.IsDefined(typeof(GlobalSetupAttribute))))
            {
                setup.Invoke(instance, null);
            }

            cleanups.AddRange(type.GetMethods().Where(m => m.IsDefined(typeof(GlobalCleanupAttribute))).Select(m => (Action)(() => m.Invoke(instance, null))));
            var method = type.GetMethod(methodName) ?? throw new ArgumentException("No benchmark " + name);
            // The codec benchmarks return nothing, the handler benchmarks a task.
            if (method.ReturnType == typeof(void))
            {
                var action = method.CreateDelegate<Action>(instance);
                calls.Add(() =>
                {
                    action();
                    return Task.CompletedTask;
                });
            }
            else
            {
                calls.Add(method.CreateDelegate<Func<Task>>(instance));
            }
        }

        // Warm-up long enough for tiered compilation to reach its optimized code for every benchmark.
        for (var round = 0; round < 3; round++)
        {
            foreach (var call in calls)
            {
                // Capped by the block size, so a codec benchmark of milliseconds per call warms up in seconds.
                Time(call, Math.Min(20_000, callsPerBlock * 20));
            }
        }

        var perCall = names.Select(_ => new List<double>()).ToArray();
        for (var block = 0; block < blocks; block++)
        {
            for (var i = 0; i < calls.Count; i++)
            {
                var index = (i + block) % calls.Count;
                perCall[index].Add(Time(calls[index], callsPerBlock));
            }
        }

        foreach (var cleanup in cleanups)
        {
            cleanup();
        }

        Console.WriteLine($"benchmark | ns per call (median of {blocks} blocks of {callsPerBlock:N0}) | vs {names[0]}: median (quartiles) of per-block ratios");
        for (var i = 0; i < names.Length; i++)
        {
            var ratios = perCall[i].Zip(perCall[0], (a, b) => a / b).Order().ToList();
            Console.WriteLine(string.Create(CultureInfo.InvariantCulture,
                $"{names[i]} | {Median(perCall[i]):F0} ({perCall[i].Min():F0}-{perCall[i].Max():F0}) | {Quantile(ratios, 0.5):F3} ({Quantile(ratios, 0.25):F3}-{Quantile(ratios, 0.75):F3})"));
        }

        return 0;
    }

    private static double Time(Func<Task> call, int count)
    {
        var start = Stopwatch.GetTimestamp();
        for (var i = 0; i < count; i++)
        {
            var task = call();
            if (!task.IsCompletedSuccessfully)
            {
                task.GetAwaiter().GetResult();
            }
        }

        return Stopwatch.GetElapsedTime(start).TotalNanoseconds / count;
    }

    private static double Median(List<double> values) => Quantile([.. values.Order()], 0.5);

    private static double Quantile(List<double> sorted, double q)
    {
        var position = (sorted.Count - 1) * q;
        var low = (int)Math.Floor(position);
        var high = (int)Math.Ceiling(position);
        return sorted[low] + (sorted[high] - sorted[low]) * (position - low);
    }
}
