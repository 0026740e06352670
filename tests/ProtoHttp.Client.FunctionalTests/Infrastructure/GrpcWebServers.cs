using System.Net;
using Microsoft.AspNetCore.Builder;
using Microsoft.AspNetCore.Hosting;
using Microsoft.AspNetCore.Hosting.Server;
using Microsoft.AspNetCore.Hosting.Server.Features;
using Microsoft.AspNetCore.Http.Features;
using Microsoft.AspNetCore.Server.Kestrel.Core;
using Microsoft.Extensions.DependencyInjection;
using Microsoft.Extensions.Logging;
using ProtoHttp.Client.FunctionalTests.Services;

namespace ProtoHttp.Client.FunctionalTests.Infrastructure;

/// <summary>
/// The client test service served in gRPC-Web by two servers, each on Kestrel at its own loopback port (HTTP/1.1, as
/// browsers' gRPC-Web reaches a server): ProtoHttp's own gRPC-Web (docs/protocol.md section 12), and grpc-dotnet's
/// (<c>Grpc.AspNetCore.Web</c>), a server nobody here wrote, which gzips its frames for a client that accepts gzip.
/// </summary>
public sealed class GrpcWebServers : IAsyncLifetime
{
    /// <summary>The name of ProtoHttp's server in the tests' rows.</summary>
    public const string ProtoHttp = "ProtoHttp";

    /// <summary>The name of grpc-dotnet's server in the tests' rows.</summary>
    public const string GrpcDotnet = "grpc-dotnet";

    private WebApplication? _protoHttp;
    private WebApplication? _grpcDotnet;

    public Uri this[string server] => server switch
    {
        ProtoHttp => Address(_protoHttp!),
        GrpcDotnet => Address(_grpcDotnet!),
        _ => throw new ArgumentOutOfRangeException(nameof(server), server, "No such server."),
    };

    public async Task InitializeAsync()
    {
        var protoHttp = Builder();
        protoHttp.Services.AddProtoHttp();
        _protoHttp = protoHttp.Build();
        _protoHttp.MapProtoService<ClientTestService>();

        var grpcDotnet = Builder();
        grpcDotnet.Services.AddGrpc(o => o.ResponseCompressionAlgorithm = "gzip");
        _grpcDotnet = grpcDotnet.Build();
        _grpcDotnet.UseGrpcWeb();
        _grpcDotnet.MapGrpcService<ClientTestService>().EnableGrpcWeb();

        await Task.WhenAll(_protoHttp.StartAsync(), _grpcDotnet.StartAsync());
    }

    public async Task DisposeAsync()
    {
        foreach (var app in new[] { _protoHttp, _grpcDotnet })
        {
            if (app is not null)
            {
                await app.StopAsync();
                await app.DisposeAsync();
            }
        }
    }

    private static WebApplicationBuilder Builder()
    {
        var builder = WebApplication.CreateBuilder(new WebApplicationOptions { EnvironmentName = "Production" });
        builder.Logging.ClearProviders();
        builder.WebHost.ConfigureKestrel(kestrel => kestrel.Listen(IPAddress.Loopback, 0, l => l.Protocols = HttpProtocols.Http1));
        builder.Services.AddSingleton<CallProbe>();
        return builder;
    }

    private static Uri Address(WebApplication app) =>
        new(app.Services.GetRequiredService<IServer>().Features.GetRequiredFeature<IServerAddressesFeature>().Addresses.Single());
}
