using Microsoft.AspNetCore.Server.Kestrel.Core;
using ProtoHttp.Bench.Streams.Server;
using StreamPeers;

// dotnet StreamPeers.dll [--http-port 5201] [--h2c-port 5202] [--tick-ms 100]
// HTTP/1.1 on the first port, HTTP/2 without TLS (h2c, prior knowledge) on the second; both on 127.0.0.1 only.
// --tick-ms 0 runs no ticker (W4 only); POST /ticker?ms=N changes a running ticker's interval.
var httpPort = PeerHost.Option(args, "--http-port", 5201);
var h2cPort = PeerHost.Option(args, "--h2c-port", 5202);
var tickMs = PeerHost.Option(args, "--tick-ms", 0);

var builder = PeerHost.CreateBuilder((httpPort, HttpProtocols.Http1), (h2cPort, HttpProtocols.Http2));
builder.Services.AddSingleton(sp => new Ticker(sp.GetRequiredService<Microsoft.AspNetCore.SignalR.IHubContext<PushHub>>(), TimeSpan.FromMilliseconds(tickMs)));
builder.Services.AddHostedService(sp => sp.GetRequiredService<Ticker>());
builder.Services.AddSingleton<DuplexCalls>();
builder.Services.AddProtoHttp();
builder.Services.AddGrpc();
builder.Services.AddSignalR().AddMessagePackProtocol();

var app = builder.Build();
app.UseWebSockets();
app.MapProtoService<PushBenchService>();
app.MapGrpcService<PushBenchService>();
app.MapHub<PushHub>(ProtoHttp.Bench.Streams.StreamWorkload.HubPath);
// W7's echo: ProtoHttp over WebSocket at its own route, Grpc.AspNetCore bidirectional over h2c, SignalR streaming both ways.
app.MapProtoService<DuplexBenchService>();
app.MapGrpcService<DuplexBenchService>();
app.MapHub<DuplexHub>(ProtoHttp.Bench.Streams.Duplex.DuplexWorkload.HubPath);
// W5's floor: the same ticks as the same events from Kestrel alone (a request delegate, no parameter binding, no
// ProtoHttp); what a ProtoHttp event stream holds above one of these is ProtoHttp's own.
var rawTicker = app.Services.GetRequiredService<Ticker>();
app.MapGet(ProtoHttp.Bench.Streams.StreamWorkload.RawEvents, (RequestDelegate)(context => rawTicker.SubscribeEventsAsync(context.Response, context.RequestAborted)));
app.MapGet("/health", () => "ok");
// W5's and W7's memory figure: after a full collection, the process's working set and the GC heap, with who is subscribed.
app.MapGet("/stats", (Ticker ticker, DuplexCalls duplex) =>
{
    PeerHost.CollectFully();
    using var process = System.Diagnostics.Process.GetCurrentProcess();
    return Results.Json(new ServerStats(process.WorkingSet64, GC.GetTotalMemory(false), ticker.Published,
        ticker.StreamSubscribers, ticker.HubClients.Count, ticker.BroadcastFaults, duplex.Count), ServerStatsJson.Default.ServerStats);
});

app.MapGet("/counters", () =>
{
    using var process = System.Diagnostics.Process.GetCurrentProcess();
    return Results.Json(new ServerCounters(process.TotalProcessorTime.TotalMilliseconds, GC.GetTotalAllocatedBytes(precise: false),
        GC.CollectionCount(0), GC.CollectionCount(1), GC.CollectionCount(2)), ServerStatsJson.Default.ServerCounters);
});

app.MapPost("/ticker", (Ticker ticker, int ms) =>
{
    ticker.SetInterval(TimeSpan.FromMilliseconds(ms));
    return Results.NoContent();
});

Console.WriteLine($"StreamPeers listening on http://127.0.0.1:{httpPort} (HTTP/1.1) and http://127.0.0.1:{h2cPort} (h2c), ticker every {tickMs} ms");
app.Run();
