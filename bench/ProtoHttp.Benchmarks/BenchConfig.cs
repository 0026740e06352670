using BenchmarkDotNet.Configs;
using BenchmarkDotNet.Exporters.Json;
using BenchmarkDotNet.Filters;
using BenchmarkDotNet.Jobs;
using BenchmarkDotNet.Toolchains.InProcess.Emit;

namespace ProtoHttp.Benchmarks;

/// <summary>The BenchmarkDotNet configuration of a full run and of the quick CI run.</summary>
internal static class BenchConfig
{
    public static IConfig Create(bool quick, string artifactsPath, string? filter)
    {
        // In-process: no second build of a generated project per run, which on 2 cores costs more than the benchmarks
        // in quick mode; the benchmarks are built Release and BenchmarkDotNet's validators still check the JIT.
        var job = quick
            ? Job.Dry.WithId("Quick")
            : Job.Default.WithWarmupCount(3).WithIterationCount(10).WithId("Full");
        var config = DefaultConfig.Instance
            .AddJob(job.WithToolchain(InProcessEmitToolchain.Instance))
            .AddExporter(JsonExporter.Full)
            .AddFilter(new SimpleFilter(b => Availability.MissingFor(b.Descriptor.Type, b.Descriptor.WorkloadMethod.Name) is null))
            .WithArtifactsPath(artifactsPath)
            .WithOptions(ConfigOptions.DisableLogFile);
        if (filter is not null)
        {
            config = config.AddFilter(new GlobFilter([filter]));
        }

        return config;
    }
}
