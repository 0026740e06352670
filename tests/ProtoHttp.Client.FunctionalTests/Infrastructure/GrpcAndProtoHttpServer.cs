using System.Net;
using Microsoft.AspNetCore.Builder;
using Microsoft.AspNetCore.Hosting;
using Microsoft.AspNetCore.Server.Kestrel.Core;
using Microsoft.Extensions.DependencyInjection;
using Microsoft.Extensions.Logging;
using ProtoHttp.Client.FunctionalTests.Services;
using ProtoHttp.FunctionalTests.Infrastructure;

namespace ProtoHttp.Client.FunctionalTests.Infrastructure;

/// <summary>
/// One service mapped both with <c>MapGrpcService</c> (gRPC over h2c) and <c>MapProtoService</c> (HTTP/1.1), with
/// one list of interceptors registered once for both, the way the README shows.
/// </summary>
public sealed class GrpcAndProtoHttpServer : IAsyncLifetime
{
    private WebApplication? _app;

    public Uri ProtoHttpAddress { get; private set; } = null!;

    public Uri GrpcAddress { get; private set; } = null!;

    public InterceptorRecord Record => _app!.Services.GetRequiredService<InterceptorRecord>();

    /// <summary>The app's interceptors, in order: written once, added to gRPC and to ProtoHttp alike.</summary>
    public static void AddInterceptors(Action<Type, object[]> add)
    {
        add(typeof(RecordingInterceptor), []);
        add(typeof(AllowHeaderInterceptor), []);
    }

    public async Task InitializeAsync()
    {
        var http1 = LoopbackPort.Free();
        var http2 = LoopbackPort.Free();
        var builder = WebApplication.CreateBuilder(new WebApplicationOptions { EnvironmentName = "Production" });
        builder.Logging.ClearProviders();
        builder.WebHost.ConfigureKestrel(kestrel =>
        {
            kestrel.Listen(IPAddress.Loopback, http1, l => l.Protocols = HttpProtocols.Http1);
            kestrel.Listen(IPAddress.Loopback, http2, l => l.Protocols = HttpProtocols.Http2);
        });
        builder.Services.AddSingleton<CallProbe>();
        builder.Services.AddSingleton<InterceptorRecord>();
        builder.Services.AddGrpc(o => AddInterceptors(o.Interceptors.Add));
        builder.Services.AddProtoHttp(o => AddInterceptors(o.Interceptors.Add));

        var app = builder.Build();
        app.MapGrpcService<ClientTestService>();
        app.MapProtoService<ClientTestService>();
        await app.StartAsync();
        _app = app;
        ProtoHttpAddress = new Uri($"http://127.0.0.1:{http1}");
        GrpcAddress = new Uri($"http://127.0.0.1:{http2}");
    }

    public async Task DisposeAsync()
    {
        if (_app is not null)
        {
            await _app.StopAsync();
            await _app.DisposeAsync();
        }
    }

}
