using System.Text.Json.Serialization;

namespace StreamPeers;

/// <summary>What <c>/stats</c> answers: memory after a full collection, ticks published, subscribers and W7 echo calls held.</summary>
public sealed record ServerStats(long WorkingSet, long GcHeap, long Published, int StreamSubscribers, int HubClients, long BroadcastFaults, int DuplexCalls);

[JsonSerializable(typeof(ServerStats))]
[JsonSourceGenerationOptions(PropertyNamingPolicy = JsonKnownNamingPolicy.CamelCase)]
internal sealed partial class ServerStatsJson : JsonSerializerContext;
