namespace ProtoHttp.Bench.Streams;

/// <summary>The five strings as a plain C# class: what a SignalR user sends.</summary>
public sealed class NotificationDto
{
    public string Symbol { get; set; } = "";

    public string Name { get; set; } = "";

    public string Price { get; set; } = "";

    public string Change { get; set; } = "";

    public string Time { get; set; } = "";

    public static NotificationDto From(Notification n) =>
        new() { Symbol = n.Symbol, Name = n.Name, Price = n.Price, Change = n.Change, Time = n.Time };
}
