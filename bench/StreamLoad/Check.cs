using System.Buffers;
using System.Text.Json;
using ProtoHttp.Bench.Streams;

namespace StreamLoad;

/// <summary>What every reader checks, so a broken stream fails instead of looking fast.</summary>
internal static class Check
{
    private static readonly string Symbol = StreamWorkload.Notification.Symbol;
    private static readonly string Time = StreamWorkload.Notification.Time;

    public static void Notification(NotificationDto? n)
    {
        if (n is null || n.Symbol != Symbol || n.Time != Time)
        {
            throw new InvalidDataException("A notification arrived without its five strings.");
        }
    }

    public static void Notification(Notification n)
    {
        if (n.Symbol != Symbol || n.Time != Time)
        {
            throw new InvalidDataException("A notification arrived without its five strings.");
        }
    }

    /// <summary>A Connect end-stream envelope: JSON with no <c>error</c>.</summary>
    public static void EndStream(ReadOnlySequence<byte> payload)
    {
        var reader = new Utf8JsonReader(payload);
        var end = JsonSerializer.Deserialize(ref reader, StreamJson.Default.EndRecord);
        if (end?.Error is { } error)
        {
            throw new InvalidDataException($"The stream failed: {error}");
        }
    }

    public static void GrpcOk(HttpResponseMessage response)
    {
        var status = response.TrailingHeaders.TryGetValues("grpc-status", out var values) ? values.FirstOrDefault()
            : response.Headers.TryGetValues("grpc-status", out values) ? values.FirstOrDefault() : null;
        if (status != "0")
        {
            throw new InvalidDataException($"gRPC ended with grpc-status {status ?? "(none)"}.");
        }
    }
}
