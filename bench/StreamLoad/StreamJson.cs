using System.Text.Json;
using System.Text.Json.Serialization;
using ProtoHttp.Bench.Streams;

namespace StreamLoad;

/// <summary>One NDJSON line of ProtoHttp's lines format: a result, or the failure (or trailers) last.</summary>
internal sealed class ResultLine<T>
{
    public T? Result { get; set; }

    public JsonElement? Error { get; set; }
}

/// <summary>The <c>end</c> event's data and the Connect end-stream envelope's JSON: an error only on failure.</summary>
internal sealed class EndRecord
{
    public string? Code { get; set; }

    public JsonElement? Error { get; set; }
}

/// <summary>Source-generated System.Text.Json for what the clients read. Canonical protobuf JSON writes int64 as strings.</summary>
[JsonSerializable(typeof(NotificationDto))]
[JsonSerializable(typeof(TickDto))]
[JsonSerializable(typeof(ResultLine<NotificationDto>))]
[JsonSerializable(typeof(EndRecord))]
[JsonSerializable(typeof(ServerStats))]
[JsonSerializable(typeof(ServerCounters))]
[JsonSerializable(typeof(ScaleOutStats))]
[JsonSourceGenerationOptions(PropertyNamingPolicy = JsonKnownNamingPolicy.CamelCase, NumberHandling = JsonNumberHandling.AllowReadingFromString)]
internal sealed partial class StreamJson : JsonSerializerContext;

/// <summary>What the server's <c>/stats</c> answers.</summary>
internal sealed record ServerStats(long WorkingSet, long GcHeap, long Published, int StreamSubscribers, int HubClients, long BroadcastFaults, int DuplexCalls);

/// <summary>What the server's <c>/counters</c> answers: CPU time, bytes allocated and collections so far.</summary>
internal sealed record ServerCounters(double CpuMs, long AllocatedBytes, int Gen0, int Gen1, int Gen2);

/// <summary>What a W6 instance's <c>/stats</c> answers (bench/ScaleOutPeers).</summary>
internal sealed record ScaleOutStats(long WorkingSet, long GcHeap, int Subscribers, long Published, int Gen0, int Gen1, int Gen2, long AllocatedBytes, double CpuSeconds);
