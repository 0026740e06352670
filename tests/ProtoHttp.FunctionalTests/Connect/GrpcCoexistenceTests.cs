using System.Net;
using Google.Protobuf;
using Grpc.Core;
using Grpc.Net.Client;
using Microsoft.AspNetCore.Builder;
using Microsoft.AspNetCore.Hosting;
using Microsoft.AspNetCore.Server.Kestrel.Core;
using Microsoft.Extensions.DependencyInjection;
using Microsoft.Extensions.Logging;
using ProtoHttp.FunctionalTests.Infrastructure;
using ProtoHttp.FunctionalTests.Protos;
using ProtoHttp.FunctionalTests.Services;

namespace ProtoHttp.FunctionalTests.Connect;

/// <summary>
/// One service mapped with both <c>MapGrpcService</c> and <c>MapProtoService</c>, in either order: gRPC and Connect share
/// the path <c>/protohttp.tests.TestService/Echo</c>, and on the same h2c port a gRPC client reaches grpc-dotnet and a
/// Connect request reaches ProtoHttp.
/// </summary>
public sealed class GrpcCoexistenceTests
{
    private static readonly Method<Tree, Tree> EchoMethod = new(
        MethodType.Unary, "protohttp.tests.TestService", "Echo",
        Marshallers.Create(m => m.ToByteArray(), Tree.Parser.ParseFrom),
        Marshallers.Create(m => m.ToByteArray(), Tree.Parser.ParseFrom));

    [Theory]
    [InlineData(true)]
    [InlineData(false)]
    public async Task GrpcAndConnectCallsOnOnePathReachTheirOwnProtocols(bool grpcMappedFirst)
    {
        var port = LoopbackPort.Free();
        var builder = WebApplication.CreateBuilder(new WebApplicationOptions { EnvironmentName = "Production" });
        builder.Logging.ClearProviders();
        builder.WebHost.ConfigureKestrel(kestrel => kestrel.Listen(IPAddress.Loopback, port, listen => listen.Protocols = HttpProtocols.Http2));
        builder.Services.AddSingleton<CallProbe>();
        builder.Services.AddGrpc();
        builder.Services.AddProtoHttp();
        await using var app = builder.Build();
        if (grpcMappedFirst)
        {
            app.MapGrpcService<ScriptedTestService>();
            app.MapProtoService<ScriptedTestService>();
        }
        else
        {
            app.MapProtoService<ScriptedTestService>();
            app.MapGrpcService<ScriptedTestService>();
        }

        await app.StartAsync();
        var address = new Uri($"http://127.0.0.1:{port}");
        var tree = new Tree { Name = "both", Child = new Tree { Name = "ways" } };

        using var channel = GrpcChannel.ForAddress(address);
        var grpcAnswer = await channel.CreateCallInvoker().AsyncUnaryCall(EchoMethod, null, new CallOptions(), tree);

        using var http = new HttpClient { BaseAddress = address, DefaultRequestVersion = HttpVersion.Version20, DefaultVersionPolicy = HttpVersionPolicy.RequestVersionExact };
        using var connectAnswer = await http.PostAsync("/protohttp.tests.TestService/Echo", Wire.Body(tree, "application/proto"));

        Assert.Equal(tree, grpcAnswer);
        Assert.Equal(HttpStatusCode.OK, connectAnswer.StatusCode);
        Assert.Equal("application/proto", connectAnswer.Content.Headers.ContentType!.MediaType);
        Assert.Equal(tree, Tree.Parser.ParseFrom(await connectAnswer.Content.ReadAsByteArrayAsync()));
        Assert.False(connectAnswer.Headers.Contains("grpc-status"), "the Connect call must not have reached grpc-dotnet");
    }

}
