using System.Net;
using Microsoft.AspNetCore.Builder;
using Microsoft.AspNetCore.Hosting;
using Microsoft.AspNetCore.Http;
using Microsoft.AspNetCore.RateLimiting;
using Microsoft.Extensions.DependencyInjection;
using Microsoft.Extensions.Logging;
using ProtoHttp.AspNetCore;
using ProtoHttp.FunctionalTests.Infrastructure;
using ProtoHttp.FunctionalTests.Protos;
using ProtoHttp.FunctionalTests.Protos.Streaming;
using ProtoHttp.FunctionalTests.Services;

namespace ProtoHttp.FunctionalTests.GrpcWeb;

/// <summary>
/// The host's rules on gRPC-Web calls (docs/protocol.md sections 5-7 and 12), in an app of their own where the
/// services' first mapping carries them: a browser on another origin under a CORS policy built from
/// <c>AddCorsPolicy</c>, rate limiting, and detailed errors in the Development environment.
/// </summary>
public sealed class GrpcWebHostRulesTests : IAsyncLifetime
{
    private const string Origin = "https://shop.example";
    private const string Echo = "/protohttp.tests.TestService/Echo";
    private const string Count = "/protohttp.tests.streaming.StreamingService/Count";

    private WebApplication _app = null!;
    private Uri _address = null!;

    public async Task InitializeAsync()
    {
        var port = LoopbackPort.Free();
        var builder = WebApplication.CreateBuilder(new WebApplicationOptions { EnvironmentName = "Development" });
        builder.Logging.ClearProviders();
        builder.WebHost.UseUrls($"http://127.0.0.1:{port}");
        builder.Services.AddSingleton<CallProbe>();
        builder.Services.AddSingleton<StreamProbe>();
        builder.Services.AddRateLimiter(o =>
        {
            o.RejectionStatusCode = StatusCodes.Status429TooManyRequests;
            o.AddFixedWindowLimiter("one-a-minute", w => (w.PermitLimit, w.Window, w.QueueLimit) = (1, TimeSpan.FromMinutes(1), 0));
        });
        builder.Services.AddProtoHttp().AddCorsPolicy("shop", policy => policy.WithOrigins(Origin).WithMethods("POST"));
        _app = builder.Build();
        _app.UseCors();
        _app.UseRateLimiter();
        _app.MapProtoService<ScriptedTestService>().RequireCors("shop");
        _app.MapProtoService<StreamingTestService>().RequireRateLimiting("one-a-minute");
        await _app.StartAsync();
        _address = new Uri($"http://127.0.0.1:{port}");
    }

    public async Task DisposeAsync() => await _app.DisposeAsync();

    [Fact]
    public async Task APreflightWithTheHeadersGrpcWebClientsSendIsAllowed()
    {
        using var preflight = new HttpRequestMessage(HttpMethod.Options, Echo);
        preflight.Headers.Add("Origin", Origin);
        preflight.Headers.Add("Access-Control-Request-Method", "POST");
        preflight.Headers.Add("Access-Control-Request-Headers", "content-type,x-grpc-web,x-user-agent,grpc-timeout");

        using var client = new HttpClient { BaseAddress = _address };
        using var response = await client.SendAsync(preflight);

        Assert.Equal(HttpStatusCode.NoContent, response.StatusCode);
        Assert.Equal(Origin, Assert.Single(response.Headers.GetValues("Access-Control-Allow-Origin")));
        var allowed = string.Join(",", response.Headers.GetValues("Access-Control-Allow-Headers")).ToLowerInvariant();
        Assert.All(["content-type", "x-grpc-web", "x-user-agent", "grpc-timeout"], header => Assert.Contains(header, allowed));
    }

    [Fact]
    public async Task ACallFromTheOriginIsAnsweredWithTheCorsHeadersAndTheStatusHeadersExposed()
    {
        using var request = GrpcWebWire.Post(Echo, GrpcWebWire.Frame(new Tree { Name = "x" }));
        request.Headers.Add("Origin", Origin);
        request.Headers.Add("X-Grpc-Web", "1");

        using var client = new HttpClient { BaseAddress = _address };
        using var response = await client.SendAsync(request);

        Assert.Equal(HttpStatusCode.OK, response.StatusCode);
        Assert.Equal(Origin, Assert.Single(response.Headers.GetValues("Access-Control-Allow-Origin")));
        var exposed = string.Join(",", response.Headers.GetValues("Access-Control-Expose-Headers")).ToLowerInvariant();
        Assert.All(["grpc-status", "grpc-message", "grpc-status-details-bin"], header => Assert.Contains(header, exposed));
        var (messages, trailers) = GrpcWebWire.Read(await response.Content.ReadAsByteArrayAsync());
        Assert.Equal("x", Tree.Parser.ParseFrom(Assert.Single(messages)).Name);
        Assert.Equal("0", trailers["grpc-status"]);
    }

    [Fact]
    public async Task ARefusalByHttpStatusIsReadableFromTheOrigin()
    {
        using var request = GrpcWebWire.Post(Echo, GrpcWebWire.Frame(new Tree()), "application/grpc-web+xml");
        request.Headers.Add("Origin", Origin);

        using var client = new HttpClient { BaseAddress = _address };
        using var response = await client.SendAsync(request);

        Assert.Equal(HttpStatusCode.UnsupportedMediaType, response.StatusCode);
        Assert.Equal(Origin, Assert.Single(response.Headers.GetValues("Access-Control-Allow-Origin")));
        Assert.Equal("3", Assert.Single(response.Headers.GetValues("grpc-status")));
        Assert.Contains("grpc-status", string.Join(",", response.Headers.GetValues("Access-Control-Expose-Headers")).ToLowerInvariant());
    }

    [Fact]
    public async Task RateLimitingRefusesTheGrpcWebCallOverTheLimit()
    {
        using var client = new HttpClient { BaseAddress = _address };
        using var first = await client.SendAsync(GrpcWebWire.Post(Count, GrpcWebWire.Frame(new CountRequest { Count = 1 })));
        using var second = await client.SendAsync(GrpcWebWire.Post(Count, GrpcWebWire.Frame(new CountRequest { Count = 1 })));

        Assert.Equal(HttpStatusCode.OK, first.StatusCode);
        Assert.Equal("0", GrpcWebWire.Read(await first.Content.ReadAsByteArrayAsync()).Trailers["grpc-status"]);
        Assert.Equal(HttpStatusCode.TooManyRequests, second.StatusCode);
    }

    [Fact]
    public async Task InDevelopmentAServiceExceptionsTextReachesTheClientWithoutItsTypeOrStack()
    {
        using var client = new HttpClient { BaseAddress = _address };
        using var response = await client.SendAsync(GrpcWebWire.Post("/protohttp.tests.TestService/Fail", GrpcWebWire.Frame(new FailRequest { Detail = "db down" })));

        var (messages, trailers) = GrpcWebWire.Read(await response.Content.ReadAsByteArrayAsync());
        Assert.Empty(messages);
        Assert.Equal("2", trailers["grpc-status"]);
        Assert.Equal("The service failed to handle the call. Secret internal detail: db down", Uri.UnescapeDataString(trailers["grpc-message"]));
        Assert.DoesNotContain("InvalidOperationException", string.Join("\n", trailers.Values));
    }
}
