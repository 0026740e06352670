namespace ProtoHttp.Benchmarks;

/// <summary>Every benchmark class, in the order the report lists them.</summary>
internal static class BenchmarkTypes
{
    public static readonly Type[] All =
    [
        typeof(NorthwindCodecBenchmarks),
        typeof(RecordCodecBenchmarks),
        typeof(HandlerBenchmarks),
        typeof(GetBenchmarks),
        typeof(RestBenchmarks),
        typeof(ClientBenchmarks),
        typeof(StreamingBenchmarks),
    ];
}
