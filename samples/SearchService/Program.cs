using SearchService;

// Serves ProtoService.proto and Northwind.proto over ProtoHttp (HTTP/1.1 and HTTP/2) and as gRPC (h2c),
// from the same service classes, plus the search page in wwwroot.
var app = SearchServiceApp.Build(args);
app.Run();
