using AotSearch;
using SearchService.Services;

// GrpcSearch [--port 5311] [--h2c-port 5312]: gRPC's /ProtoService.SearchService/Search on the h2c port.
var builder = SearchHost.CreateBuilder(args);
builder.Services.AddGrpc();

var app = builder.Build();
app.MapGrpcService<CatalogSearchService>();
app.Run();
