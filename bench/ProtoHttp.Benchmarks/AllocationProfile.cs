using System.Diagnostics.Tracing;
using System.Reflection;
using System.Globalization;
using BenchmarkDotNet.Attributes;

namespace ProtoHttp.Benchmarks;

/// <summary>
/// Where a benchmark's bytes go: runs each named benchmark many times on one thread and prints the exact bytes allocated
/// per call (<see cref="GC.GetAllocatedBytesForCurrentThread"/>) and, by type, the runtime's allocation samples (one
/// <c>GCAllocationTick</c> per ~100 KB, attributed to the object that crossed it: in expectation each type's share of
/// the bytes). Two benchmarks side by side show which types one allocates beyond the other.
/// </summary>
/// <remarks><c>--allocations HandlerBenchmarks.Search_MessagesOnly,HandlerBenchmarks.Search_Protobuf [--calls N]</c></remarks>
internal static class AllocationProfile
{
    public static int Run(string benchmarks, int calls)
    {
        var profiles = new List<(string Name, double PerCall, Dictionary<string, long> ByType, long Sampled)>();
        foreach (var name in benchmarks.Split(','))
        {
            var (typeName, methodName) = (name[..name.LastIndexOf('.')], name[(name.LastIndexOf('.') + 1)..]);
            var type = typeof(AllocationProfile).Assembly.GetType("ProtoHttp.Benchmarks." + typeName, throwOnError: true)!;
            var instance = Activator.CreateInstance(type)!;
            foreach (var setup in type.GetMethods().Where(m => m.IsDefined(typeof(GlobalSetupAttribute))))
            {
                setup.Invoke(instance, null);
            }

            var method = type.GetMethod(methodName) ?? throw new ArgumentException("No benchmark " + name);
            // Codec benchmarks are synchronous (void); the handler and client ones return a Task.
            Func<Task> call;
            if (method.ReturnType == typeof(void))
            {
                var action = method.CreateDelegate<Action>(instance);
                call = () =>
                {
                    action();
                    return Task.CompletedTask;
                };
            }
            else
            {
                call = method.CreateDelegate<Func<Task>>(instance);
            }

            for (var i = 0; i < 20_000; i++)
            {
                Wait(call());
            }

            using var listener = new AllocationListener();
            var before = GC.GetAllocatedBytesForCurrentThread();
            for (var i = 0; i < calls; i++)
            {
                Wait(call());
            }

            var perCall = (GC.GetAllocatedBytesForCurrentThread() - before) / (double)calls;
            listener.Stop();
            profiles.Add((name, perCall, listener.ByType, listener.Total));
            foreach (var cleanup in type.GetMethods().Where(m => m.IsDefined(typeof(GlobalCleanupAttribute))))
            {
                cleanup.Invoke(instance, null);
            }
        }

        foreach (var (name, perCall, _, sampled) in profiles)
        {
            Console.WriteLine(string.Create(CultureInfo.InvariantCulture, $"{name}: {perCall:F1} B per call ({calls:N0} calls; {sampled / 1e6:F1} MB sampled)"));
        }

        var types = profiles.SelectMany(p => p.ByType.Keys).Distinct()
            .Select(t => (Type: t, PerCall: profiles.Select(p => p.ByType.GetValueOrDefault(t) / (double)calls).ToArray()))
            .OrderByDescending(t => t.PerCall.Max() - t.PerCall.Min())
            .ThenByDescending(t => t.PerCall.Max())
            .ToList();
        Console.WriteLine("estimated B per call by type | " + string.Join(" | ", profiles.Select(p => p.Name)));
        foreach (var (typeName, perCall) in types.Where(t => t.PerCall.Max() >= 1))
        {
            Console.WriteLine(typeName + " | " + string.Join(" | ", perCall.Select(v => v.ToString("F1", CultureInfo.InvariantCulture))));
        }

        return 0;
    }

    private static void Wait(Task task)
    {
        if (!task.IsCompleted)
        {
            task.GetAwaiter().GetResult();
        }
        else if (task.IsFaulted)
        {
            task.GetAwaiter().GetResult();
        }
    }

    private sealed class AllocationListener : EventListener
    {
        private volatile bool _stopped;

        public Dictionary<string, long> ByType { get; } = [];

        public long Total { get; private set; }

        public void Stop() => _stopped = true;

        protected override void OnEventSourceCreated(EventSource eventSource)
        {
            if (eventSource.Name == "Microsoft-Windows-DotNETRuntime")
            {
                EnableEvents(eventSource, EventLevel.Verbose, (EventKeywords)0x1); // GC: GCAllocationTick
            }
        }

        protected override void OnEventWritten(EventWrittenEventArgs e)
        {
            if (_stopped || e.EventName is null || !e.EventName.StartsWith("GCAllocationTick", StringComparison.Ordinal) || e.PayloadNames is null)
            {
                return;
            }

            var amount = Convert.ToInt64(e.Payload![e.PayloadNames.IndexOf("AllocationAmount64")], CultureInfo.InvariantCulture);
            var typeName = e.Payload[e.PayloadNames.IndexOf("TypeName")] as string ?? "?";
            lock (ByType)
            {
                ByType[typeName] = ByType.GetValueOrDefault(typeName) + amount;
                Total += amount;
            }
        }
    }
}
