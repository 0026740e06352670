namespace ProtoHttp.Bench.Streams;

/// <summary>A W5 tick as a plain C# class, for SignalR and for reading ProtoHttp's JSON streams.</summary>
public sealed class TickDto
{
    public long Sequence { get; set; }

    public long PublishedNs { get; set; }

    public NotificationDto? Notification { get; set; }

    public static TickDto From(Tick t) =>
        new() { Sequence = t.Sequence, PublishedNs = t.PublishedNs, Notification = NotificationDto.From(t.Notification) };
}
