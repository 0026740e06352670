using BenchmarkDotNet.Running;
using ProtoHttp.Benchmarks;

// dotnet run -c Release --project bench/ProtoHttp.Benchmarks -- [--quick] [--artifacts DIR] [--filter GLOB]
//   runs the self-check (every benchmark once), writes the W1 sizes, then runs BenchmarkDotNet.
// dotnet run -c Release --project bench/ProtoHttp.Benchmarks -- --bodies DIR
//   writes the load script's request bodies.
// dotnet run -c Release --project bench/ProtoHttp.Benchmarks -- --allocations Class.Method[,Class.Method] [--calls N]
//   prints each benchmark's bytes per call and, from the runtime's allocation samples, by type (AllocationProfile).
// dotnet run -c Release --project bench/ProtoHttp.Benchmarks -- --interleave Class.Method,Class.Method [--blocks N] [--calls M]
//   times the benchmarks in alternating blocks and prints their ratios to the first (InterleavedTiming).
var quick = args.Contains("--quick");
var artifacts = Option("--artifacts") ?? Path.Combine(Environment.CurrentDirectory, "BenchmarkDotNet.Artifacts");
if (Option("--bodies") is { } bodies)
{
    RequestBodies.Write(bodies);
    return 0;
}

if (Option("--allocations") is { } profiled)
{
    return AllocationProfile.Run(profiled, int.Parse(Option("--calls") ?? "1000000", System.Globalization.CultureInfo.InvariantCulture));
}

if (Option("--interleave") is { } interleaved)
{
    var invariant = System.Globalization.CultureInfo.InvariantCulture;
    return InterleavedTiming.Run(interleaved, int.Parse(Option("--blocks") ?? "40", invariant), int.Parse(Option("--calls") ?? "5000", invariant));
}

WireSizes.Write(Path.Combine(artifacts, "sizes.json"));
if (!SelfCheck.Run(BenchmarkTypes.All, Path.Combine(artifacts, "selfcheck.json")))
{
    return 1;
}

if (args.Contains("--selfcheck-only"))
{
    return 0;
}

var summaries = BenchmarkRunner.Run(BenchmarkTypes.All, BenchConfig.Create(quick, artifacts, Option("--filter")));
var broken = summaries.Where(s => s.HasCriticalValidationErrors || s.Reports.Any(r => !r.Success)).Select(s => s.Title).ToList();
if (broken.Count > 0)
{
    Console.Error.WriteLine("BenchmarkDotNet runs failed: " + string.Join(", ", broken));
    return 1;
}

Console.WriteLine($"benchmarks: {summaries.Sum(s => s.Reports.Length)} passed, 0 failed");
return 0;

string? Option(string name)
{
    var index = Array.IndexOf(args, name);
    return index >= 0 && index + 1 < args.Length ? args[index + 1] : null;
}
