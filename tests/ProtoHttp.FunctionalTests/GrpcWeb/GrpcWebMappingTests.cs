using System.Net;
using Google.Protobuf;
using Grpc.Core;
using Grpc.Net.Client;
using Grpc.Net.Client.Web;
using Microsoft.AspNetCore.Builder;
using Microsoft.AspNetCore.Hosting;
using Microsoft.AspNetCore.Http;
using Microsoft.Extensions.DependencyInjection;
using Microsoft.Extensions.Logging;
using ProtoHttp.FunctionalTests.Infrastructure;
using ProtoHttp.FunctionalTests.Protos;
using ProtoHttp.FunctionalTests.Services;

namespace ProtoHttp.FunctionalTests.GrpcWeb;

/// <summary>
/// Which endpoint answers gRPC-Web when grpc-dotnet maps the same service with its own gRPC-Web middleware
/// (<c>UseGrpcWeb()</c>, Grpc.AspNetCore.Web), as docs/grpc-web.md records; and authorization on gRPC-Web calls.
/// The answering endpoint is read from routing, in a middleware after it, so the test does not guess from the body.
/// </summary>
public sealed class GrpcWebMappingTests
{
    private const string EndpointHeader = "x-test-endpoint";

    private static readonly Method<Tree, Tree> EchoMethod = new(
        MethodType.Unary, "protohttp.tests.TestService", "Echo",
        Marshallers.Create(m => m.ToByteArray(), Tree.Parser.ParseFrom),
        Marshallers.Create(m => m.ToByteArray(), Tree.Parser.ParseFrom));

    public enum GrpcDotnetWeb
    {
        /// <summary><c>UseGrpcWeb()</c>, and gRPC-Web not enabled on grpc-dotnet's endpoint.</summary>
        MiddlewareOnly,

        /// <summary><c>UseGrpcWeb()</c> and <c>MapGrpcService&lt;T&gt;().EnableGrpcWeb()</c>.</summary>
        EnabledOnEndpoint,

        /// <summary><c>UseGrpcWeb(new GrpcWebOptions { DefaultEnabled = true })</c>, nothing on the endpoint.</summary>
        DefaultEnabled,
    }

    [Theory]
    [InlineData(GrpcDotnetWeb.MiddlewareOnly, GrpcWebMode.GrpcWeb, "ProtoHttp gRPC-Web")]
    [InlineData(GrpcDotnetWeb.MiddlewareOnly, GrpcWebMode.GrpcWebText, "ProtoHttp gRPC-Web")]
    [InlineData(GrpcDotnetWeb.EnabledOnEndpoint, GrpcWebMode.GrpcWeb, "gRPC - ")]
    [InlineData(GrpcDotnetWeb.EnabledOnEndpoint, GrpcWebMode.GrpcWebText, "gRPC - ")]
    [InlineData(GrpcDotnetWeb.DefaultEnabled, GrpcWebMode.GrpcWeb, "ProtoHttp gRPC-Web")]
    [InlineData(GrpcDotnetWeb.DefaultEnabled, GrpcWebMode.GrpcWebText, "ProtoHttp gRPC-Web")]
    public async Task TheAppsMappingDecidesWhichGrpcWebAnswers(GrpcDotnetWeb grpcDotnet, GrpcWebMode mode, string answeredBy)
    {
        var logs = new LogSink();
        await using var app = await StartAsync(logs, app =>
        {
            app.UseRouting();
            app.UseGrpcWeb(new GrpcWebOptions { DefaultEnabled = grpcDotnet == GrpcDotnetWeb.DefaultEnabled });
            app.Use((context, next) =>
            {
                context.Response.Headers[EndpointHeader] = context.GetEndpoint()?.DisplayName;
                return next(context);
            });
            var grpc = app.MapGrpcService<ScriptedTestService>();
            if (grpcDotnet == GrpcDotnetWeb.EnabledOnEndpoint)
            {
                grpc.EnableGrpcWeb();
            }

            app.MapProtoService<ScriptedTestService>();
        });
        var tree = new Tree { Name = "which", Child = new Tree { Name = "one" } };
        string? endpoint = null;
        using var channel = Channel(app, mode, response => endpoint = response.Headers.GetValues(EndpointHeader).Single());

        var answer = await channel.CreateCallInvoker().AsyncUnaryCall(EchoMethod, null, new CallOptions(), tree);

        Assert.Equal(tree, answer);
        Assert.StartsWith(answeredBy, endpoint);
        Assert.Empty(await logs.ErrorsOnceEndedAsync());
    }

    [Fact]
    public async Task AnEndpointBehindAuthorizationRefusesAnonymousGrpcWebCallsAsUnauthenticated()
    {
        await using var app = await StartAsync(new LogSink(), app => app.MapProtoService<ScriptedTestService>().RequireAuthorization(),
            builder => HeaderAuthenticationHandler.AddTo(builder.Services));
        using var anonymous = Channel(app, GrpcWebMode.GrpcWeb);
        using var named = Channel(app, GrpcWebMode.GrpcWeb, user: "ada");

        var refusal = await Assert.ThrowsAsync<RpcException>(async () =>
            await anonymous.CreateCallInvoker().AsyncUnaryCall(EchoMethod, null, new CallOptions(), new Tree()));
        var answer = await named.CreateCallInvoker().AsyncUnaryCall(EchoMethod, null, new CallOptions(), new Tree { Name = "ada's" });

        Assert.Equal(StatusCode.Unauthenticated, refusal.StatusCode);
        Assert.Equal("ada's", answer.Name);
    }

    [Fact]
    public async Task WithGrpcWebOffARequestInAGrpcWebTypeIsConnectsToRefuse()
    {
        await using var app = await StartAsync(new LogSink(), app => app.MapProtoService<ScriptedTestService>(),
            builder => builder.Services.AddProtoHttp().AddServiceOptions<ScriptedTestService>(o => o.DisabledProtocols.Add(ProtocolNames.GrpcWeb)));
        using var http = new HttpClient { BaseAddress = app.Urls.Select(u => new Uri(u)).Single() };

        using var response = await http.SendAsync(GrpcWebWire.Post("/protohttp.tests.TestService/Echo", GrpcWebWire.Frame(new Tree())));

        Assert.Equal(HttpStatusCode.UnsupportedMediaType, response.StatusCode);
        Assert.Contains("is not a Connect codec", await response.Content.ReadAsStringAsync());
    }

    [Fact]
    public async Task ADisabledProtocolNoRegisteredProtocolHasStopsTheMappingNamingThoseThereAre()
    {
        var error = await Assert.ThrowsAsync<InvalidOperationException>(() => StartAsync(new LogSink(), app => app.MapProtoService<ScriptedTestService>(),
            builder => builder.Services.AddProtoHttp(o => o.DisabledProtocols.Add("GrpcWebb"))));

        Assert.Equal(
            "ProtoHttpOptions.DisabledProtocols names 'GrpcWebb', which no registered protocol is called; the protocols are ProtoHttp, Connect, GrpcWeb, WebSocket, Rest.",
            error.Message);
    }

    private static async Task<WebApplication> StartAsync(LogSink logs, Action<WebApplication> map, Action<WebApplicationBuilder>? configure = null)
    {
        var builder = WebApplication.CreateBuilder(new WebApplicationOptions { EnvironmentName = "Production" });
        builder.Logging.ClearProviders();
        builder.Logging.AddProvider(logs);
        builder.Logging.AddFilter<LogSink>(category: null, LogLevel.Information); // Hosting's request lines, which the log waits on.
        builder.WebHost.UseUrls($"http://127.0.0.1:{LoopbackPort.Free()}");
        builder.Services.AddSingleton<CallProbe>();
        builder.Services.AddGrpc();
        builder.Services.AddProtoHttp();
        builder.Services.AddAuthorization();
        configure?.Invoke(builder);
        var app = builder.Build();
        map(app);
        await app.StartAsync();
        return app;
    }

    private static GrpcChannel Channel(WebApplication app, GrpcWebMode mode, Action<HttpResponseMessage>? onResponse = null, string? user = null) =>
        GrpcChannel.ForAddress(app.Urls.Single(), new GrpcChannelOptions
        {
            HttpHandler = new GrpcWebHandler(mode, new Recorder(onResponse, user)),
            HttpVersion = HttpVersion.Version11,
            HttpVersionPolicy = HttpVersionPolicy.RequestVersionExact,
        });

    /// <summary>Sees each response before the gRPC-Web client reads it; names the caller when asked to.</summary>
    private sealed class Recorder(Action<HttpResponseMessage>? onResponse, string? user) : DelegatingHandler(new SocketsHttpHandler())
    {
        protected override async Task<HttpResponseMessage> SendAsync(HttpRequestMessage request, CancellationToken cancellationToken)
        {
            if (user is not null)
            {
                request.Headers.Add("X-Test-User", user);
            }

            var response = await base.SendAsync(request, cancellationToken);
            onResponse?.Invoke(response);
            return response;
        }
    }
}
