using System.Diagnostics;
using Microsoft.AspNetCore.Server.Kestrel.Core;
using Microsoft.AspNetCore.SignalR;
using ProtoHttp.Bench.Streams;
using ProtoHttp.Bench.Streams.Server;
using ScaleOutPeers;

// dotnet ScaleOutPeers.dll --peer protohttp|signalr --port 5301 --redis 127.0.0.1:6379
// One instance of W6's scale-out peer on 127.0.0.1 (HTTP/1.1). POST /publish takes one protobuf Tick and publishes it
// to every subscriber of every instance: on the ProtoHttp topic "ticks" (Redis Streams), or SignalR's Clients.All
// (Redis pub/sub). GET /stats: memory after a full collection, and the collections and allocations before it.
var peer = PeerHost.Option(args, "--peer", "protohttp");
var port = PeerHost.Option(args, "--port", 5301);
var redis = PeerHost.Option(args, "--redis", "127.0.0.1:6379");
if (peer is not ("protohttp" or "signalr"))
{
    Console.Error.WriteLine($"Unknown --peer '{peer}': protohttp or signalr.");
    return 2;
}

var builder = PeerHost.CreateBuilder((port, HttpProtocols.Http1));
builder.Services.AddSingleton<Subscribers>();
if (peer == "protohttp")
{
    builder.Services.AddProtoHttp().AddRedisBackplane(redis);
}
else
{
    // 5,000 clients connect on one shared core: a handshake answered late is the machine's queueing, not a dead
    // client (the default closes it after 15 s).
    builder.Services.AddSignalR(o => o.HandshakeTimeout = TimeSpan.FromMinutes(2)).AddStackExchangeRedis(redis);
}

var app = builder.Build();
long published = 0;
if (peer == "protohttp")
{
    app.MapProtoService<TopicBenchService>();
    var topic = app.Services.GetRequiredService<ProtoHttp.AspNetCore.IProtoTopics>().Topic<Tick>(TopicBenchService.TopicName);
    app.MapPost("/publish", async (HttpRequest request) =>
    {
        var tick = Tick.Parser.ParseFrom(await ReadBodyAsync(request));
        Interlocked.Increment(ref published);
        await topic.PublishAsync(tick, request.HttpContext.RequestAborted);
        return Results.NoContent();
    });
}
else
{
    app.UseWebSockets();
    app.MapHub<TickHub>(StreamWorkload.HubPath);
    var hub = app.Services.GetRequiredService<IHubContext<TickHub>>();
    app.MapPost("/publish", async (HttpRequest request) =>
    {
        var tick = Tick.Parser.ParseFrom(await ReadBodyAsync(request));
        Interlocked.Increment(ref published);
        await hub.Clients.All.SendAsync("tick", new TickDto { Sequence = tick.Sequence, PublishedNs = tick.PublishedNs, Notification = StreamWorkload.NotificationDto }, request.HttpContext.RequestAborted);
        return Results.NoContent();
    });
}

app.MapGet("/health", () => "ok");
app.MapGet("/stats", (Subscribers subscribers) =>
{
    // Collections and allocations as the run left them, before this endpoint's own full collections.
    var (gen0, gen1, gen2) = (GC.CollectionCount(0), GC.CollectionCount(1), GC.CollectionCount(2));
    var allocated = GC.GetTotalAllocatedBytes(precise: true);
    using var process = Process.GetCurrentProcess();
    var cpu = process.TotalProcessorTime.TotalSeconds;
    PeerHost.CollectFully();
    process.Refresh();
    return Results.Json(new ServerStats(process.WorkingSet64, GC.GetTotalMemory(false), subscribers.Count, Interlocked.Read(ref published),
        gen0, gen1, gen2, allocated, cpu), ServerStatsJson.Default.ServerStats);
});

Console.WriteLine($"ScaleOutPeers ({peer}) listening on http://127.0.0.1:{port}, Redis at {redis}");
app.Run();
return 0;

static async Task<byte[]> ReadBodyAsync(HttpRequest request)
{
    using var buffer = new MemoryStream();
    await request.Body.CopyToAsync(buffer);
    return buffer.ToArray();
}
