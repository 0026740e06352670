using System.Text.Json.Serialization;

namespace ScaleOutPeers;

/// <summary>
/// What <c>/stats</c> answers: memory after a full collection, subscribers held, and the process's collections and
/// allocations so far (the profile of a run: the load tool subtracts two readings).
/// </summary>
public sealed record ServerStats(long WorkingSet, long GcHeap, int Subscribers, long Published, int Gen0, int Gen1, int Gen2, long AllocatedBytes, double CpuSeconds);

[JsonSerializable(typeof(ServerStats))]
[JsonSourceGenerationOptions(PropertyNamingPolicy = JsonKnownNamingPolicy.CamelCase)]
internal sealed partial class ServerStatsJson : JsonSerializerContext;
