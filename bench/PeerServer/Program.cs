using System.Net;
using Microsoft.AspNetCore.Server.Kestrel.Core;
using PeerServer.Peers;
using ProtoHttp.Bench.Workloads;
using ProtoHttp.Bench.Workloads.Peers;
using ProtoHttp.Bench.Workloads.Services;
using SearchService.Catalog;
using SearchService.Services;

// dotnet PeerServer.dll [--http-port 5101] [--h2c-port 5102]
// HTTP/1.1 on the first port, HTTP/2 without TLS (h2c, prior knowledge) on the second; both on 127.0.0.1 only.
var httpPort = Port("--http-port", 5101);
var h2cPort = Port("--h2c-port", 5102);

var builder = WebApplication.CreateSlimBuilder(new WebApplicationOptions { Args = [], ContentRootPath = AppContext.BaseDirectory });
// The sample's appsettings.json is copied next to the binaries and names the sample's gRPC address: this server
// listens only where the load script expects it.
builder.Configuration.Sources.Clear();
builder.Logging.ClearProviders().AddConsole().SetMinimumLevel(LogLevel.Warning);
builder.WebHost.ConfigureKestrel(kestrel =>
{
    kestrel.Listen(IPAddress.Loopback, httpPort, o => o.Protocols = HttpProtocols.Http1);
    kestrel.Listen(IPAddress.Loopback, h2cPort, o => o.Protocols = HttpProtocols.Http2);
});

var catalog = Workload.LoadCatalog();
builder.Services.AddSingleton(catalog);
builder.Services.AddSingleton(NorthwindOrders.Load(Workload.DataFolder));
builder.Services.AddSingleton(new RawCeiling(catalog));
builder.Services.AddProtoHttp();
// One process hosts every peer, so no peer may tax another's routes: by default grpc-dotnet maps a catch-all
// `{service}/{method}` endpoint answering UNIMPLEMENTED, which every two-segment path (ProtoHttp's `/{file}.proto/{Method}`,
// the raw ceiling behind routing) would then carry as a second candidate through the matcher's policies.
builder.Services.AddGrpc(grpc => grpc.IgnoreUnknownServices = true).AddJsonTranscoding();

var app = builder.Build();
var raw = app.Services.GetRequiredService<RawCeiling>();
app.Use(raw.InvokeAsync);

// Routing after the ceiling, so the ceiling pays for no route matching.
app.UseRouting();

raw.MapRouted(app);
app.MapProtoService<CatalogSearchService>();
app.MapProtoService<NorthwindOrdersService>();
app.MapProtoService<RecordEchoService>();
// W8: the same google.api.http rules twice, under /w8/protohttp/ for ProtoHttp's REST routes and /w8/transcoding/ for transcoding.
app.MapProtoService<ProtoHttpRestService>();
app.MapGrpcService<TranscodingRestService>();
app.MapGrpcService<CatalogSearchService>();
app.MapGrpcService<NorthwindOrdersService>();
app.MapGrpcService<RecordEchoService>();
app.MapGrpcService<TranscodedSearchService>();
app.MapGrpcService<TranscodedRecordService>();
MinimalApiPeer.Map(app);
app.MapGet("/health", () => "ok");

Console.WriteLine($"PeerServer listening on http://127.0.0.1:{httpPort} (HTTP/1.1) and http://127.0.0.1:{h2cPort} (h2c)");
app.Run();

int Port(string name, int fallback)
{
    var index = Array.IndexOf(args, name);
    return index >= 0 && index + 1 < args.Length ? int.Parse(args[index + 1], System.Globalization.CultureInfo.InvariantCulture) : fallback;
}
