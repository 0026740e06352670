using System.Diagnostics;

namespace ProtoHttp.Bench.Streams;

/// <summary>The one notification every W4 peer sends, and the clock W5's ticks are stamped with.</summary>
public static class StreamWorkload
{
    /// <summary>The paths of the two methods under ProtoHttp's own routes (<c>/{file}/{Method}</c>).</summary>
    public const string ProtoHttpPush = "/StreamBench.proto/Push";

    /// <inheritdoc cref="ProtoHttpPush"/>
    public const string ProtoHttpSubscribe = "/StreamBench.proto/Subscribe";

    /// <summary>The paths gRPC and Connect share (<c>/{package}.{Service}/{Method}</c>).</summary>
    public const string RpcPush = "/StreamBench.PushService/Push";

    /// <inheritdoc cref="RpcPush"/>
    public const string RpcSubscribe = "/StreamBench.PushService/Subscribe";

    /// <summary>W5's floor: the ticks as events from a plain Kestrel endpoint, with no ProtoHttp between (GET).</summary>
    public const string RawEvents = "/raw/events";

    /// <summary>SignalR's hub, with the streaming method <c>Push(count)</c> and the broadcast <c>tick</c>.</summary>
    public const string HubPath = "/hub";

    /// <summary>A stock quote's five strings, 76 bytes of protobuf.</summary>
    public static Notification Notification { get; } = new()
    {
        Symbol = "NWND",
        Name = "Northwind Traders Ltd.",
        Price = "412.35",
        Change = "+1.27 (+0.31%)",
        Time = "2010-04-12T09:30:00.000Z",
    };

    /// <summary>The same five strings as SignalR carries them.</summary>
    public static NotificationDto NotificationDto { get; } = NotificationDto.From(Notification);

    /// <summary>
    /// Now on the machine's monotonic clock in nanoseconds. On Linux <see cref="Stopwatch"/> reads CLOCK_MONOTONIC, one
    /// clock for every process, so a publisher's stamp and a subscriber's receipt can be subtracted.
    /// </summary>
    public static long NowNs() => (long)(Stopwatch.GetTimestamp() * (1e9 / Stopwatch.Frequency));
}
