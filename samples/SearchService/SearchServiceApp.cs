using Grpc.Reflection;
using Microsoft.AspNetCore.Diagnostics.HealthChecks;
using SearchService.Catalog;
using SearchService.Health;
using SearchService.Services;
using SearchService.Streams;

namespace SearchService;

/// <summary>Builds the sample application; the functional tests build it the same way, on loopback ports.</summary>
public static class SearchServiceApp
{
    /// <summary>The tag of the health checks <c>/healthz/ready</c> runs.</summary>
    public const string ReadyTag = "ready";

    public static WebApplication Build(string[] args, Action<WebApplicationBuilder>? configure = null)
    {
        var builder = WebApplication.CreateBuilder(new WebApplicationOptions
        {
            Args = args,
            // Data, pages and settings are copied next to the binaries, so the app runs the same from any folder.
            ContentRootPath = AppContext.BaseDirectory,
            WebRootPath = "wwwroot",
        });

        SampleEndpoints.Configure(builder);
        SampleTelemetry.Configure(builder);

        var dataFolder = Path.Combine(AppContext.BaseDirectory, "Data");
        builder.Services.AddSingleton(ProductCatalog.Load(dataFolder));
        builder.Services.AddSingleton(NorthwindOrders.Load(dataFolder));
        builder.Services.Configure<PriceTickerOptions>(builder.Configuration.GetSection("PriceTicker"));
        builder.Services.AddSingleton<PriceTicker>();
        builder.Services.AddHostedService(services => services.GetRequiredService<PriceTicker>());
        // The reflection service answers Connect too (bidirectional, so over h2c); its .proto is not embedded.
        builder.Services.AddProtoHttp().AddServiceOptions<ReflectionV1ServiceImpl>(options => options.ServeProtoFile = false);

        builder.Services.AddGrpc();
        // grpc-dotnet's reflection services over the services named here. AddGrpcReflection() finds them in the
        // endpoints instead, through a fallback that reflects over types the trimmer may remove: the one trim warning
        // a Native AOT publish of the sample would have (IL2075 in Grpc.AspNetCore.Server.Reflection 2.85).
        Google.Protobuf.Reflection.ServiceDescriptor[] reflected =
        [
            ProtoService.SearchService.Descriptor, Northwind.NorthwindService.Descriptor, Northwind.NorthwindStreams.Descriptor,
            Grpc.Reflection.V1Alpha.ServerReflection.Descriptor, Grpc.Reflection.V1.ServerReflection.Descriptor,
        ];
        builder.Services.AddSingleton(new ReflectionServiceImpl(reflected));
        builder.Services.AddSingleton(new ReflectionV1ServiceImpl(reflected));
        builder.Services.AddOpenApi(options => options.AddProtoHttp());
        builder.Services.AddAuthentication();
        builder.Services.AddAuthorization();
        builder.Services.AddCors();
        builder.Services.AddRateLimiter(_ => { });
        builder.Services.AddHealthChecks().AddCheck<CatalogDataHealthCheck>("catalog-data", tags: [ReadyTag]);
        configure?.Invoke(builder);
        if (builder.Configuration["PriceTicker:Redis"] is { Length: > 0 } redis)
        {
            // The price feed's topic in Redis: one feed for every instance, resumable on any (docs/deploy.md).
            builder.Services.AddProtoHttp().AddRedisBackplane(redis);
        }
        else if (builder.Configuration["PriceTicker:Nats"] is { Length: > 0 } nats)
        {
            builder.Services.AddProtoHttp().AddNatsBackplane(nats);
        }

        var app = builder.Build();
        app.UseDefaultFiles();
        app.UseStaticFiles();
        app.UseRouting();
        app.UseCors();
        app.UseAuthentication();
        app.UseAuthorization();
        app.UseRateLimiter();

        app.MapProtoService<CatalogSearchService>();
        app.MapProtoService<NorthwindOrdersService>();
        app.MapGrpcService<CatalogSearchService>();
        app.MapGrpcService<NorthwindOrdersService>();
        app.MapProtoService<NorthwindStreamsService>();
        app.MapGrpcService<NorthwindStreamsService>();
        app.MapGrpcService<ReflectionServiceImpl>(); // grpc.reflection.v1alpha and v1: buf curl and grpcurl need no --schema
        app.MapGrpcService<ReflectionV1ServiceImpl>();
        app.MapProtoService<ReflectionV1ServiceImpl>().ExcludeFromDescription(); // tooling, not the API: no OpenAPI, no explorer
        app.MapOpenApi(); // GET /openapi/v1.json
        app.MapProtoHttpExplorer(); // GET /protohttp, and each GET /{file}.proto a browser asks for

        // Liveness runs no check (a live process answers, and restarting it cures nothing a check could see);
        // readiness runs the checks tagged for it, so an instance without its data gets no calls.
        app.MapHealthChecks("/healthz", new HealthCheckOptions { Predicate = _ => false });
        app.MapHealthChecks("/healthz/ready", new HealthCheckOptions { Predicate = check => check.Tags.Contains(ReadyTag) });
        return app;
    }
}
