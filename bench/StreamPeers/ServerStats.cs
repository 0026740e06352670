using System.Text.Json.Serialization;

namespace StreamPeers;

/// <summary>What <c>/stats</c> answers: memory after a full collection, ticks published, subscribers and W7 echo calls held.</summary>
public sealed record ServerStats(long WorkingSet, long GcHeap, long Published, int StreamSubscribers, int HubClients, long BroadcastFaults, int DuplexCalls);

/// <summary>
/// What <c>/counters</c> answers, with no collection forced: the process's CPU time, the bytes it allocated and its
/// collections so far. W7 reads them around its window for the server's cost per round trip.
/// </summary>
public sealed record ServerCounters(double CpuMs, long AllocatedBytes, int Gen0, int Gen1, int Gen2);

[JsonSerializable(typeof(ServerStats))]
[JsonSerializable(typeof(ServerCounters))]
[JsonSourceGenerationOptions(PropertyNamingPolicy = JsonKnownNamingPolicy.CamelCase)]
internal sealed partial class ServerStatsJson : JsonSerializerContext;
