using AotSearch;
using SearchService.Services;

// ProtoHttpSearch [--port 5301] [--h2c-port 5302]: POST /ProtoService.proto/Search in every format ProtoHttp speaks.
var builder = SearchHost.CreateBuilder(args);
builder.Services.AddProtoHttp();

var app = builder.Build();
app.MapProtoService<CatalogSearchService>();
app.Run();
