using Microsoft.AspNetCore.Http.Timeouts;
using Microsoft.AspNetCore.ResponseCompression;
using ProtoHttp.FunctionalTests.Services;

// ProtoHttp.NativeMiddleware [--urls http://127.0.0.1:5095]: the middleware service behind ASP.NET Core's request
// timeouts (a 1 s default, which becomes each unary call's deadline), output cache (.CacheOutput() on the service)
// and response compression (gzip and Brotli, protobuf and the stream types included), as docs/aspnetcore.md describes.
var builder = WebApplication.CreateSlimBuilder(args);
builder.Services.AddProtoHttp();
builder.Services.AddRequestTimeouts(o => o.DefaultPolicy = new RequestTimeoutPolicy { Timeout = TimeSpan.FromSeconds(1) });
builder.Services.AddOutputCache();
builder.Services.AddResponseCompression(o => o.MimeTypes =
[
    .. ResponseCompressionDefaults.MimeTypes, "application/x-protobuf", "text/event-stream", "application/x-ndjson",
]);

var app = builder.Build();
app.UseResponseCompression();
app.UseRequestTimeouts();
app.UseOutputCache();
app.MapProtoService<MiddlewareTestService>().CacheOutput();
app.MapProtoHttpExplorer();
app.Run();
