using System.Net;
using Microsoft.Extensions.DependencyInjection;
using Microsoft.Extensions.Logging;
using ProtoHttp.FunctionalTests.Infrastructure;
using ProtoHttp.FunctionalTests.Protos;
using ProtoHttp.FunctionalTests.Services;

namespace ProtoHttp.FunctionalTests;

/// <summary>gRPC interceptors around ProtoHttp calls: their order, their failures, and the deadline and activation through them.</summary>
public sealed class InterceptorTests : IAsyncLifetime
{
    private SampleServer _server = null!;

    public async Task InitializeAsync() => _server = await SampleServer.StartAsync(configure: builder =>
    {
        // The service's own interceptor is configured first on purpose: the global ones must still run before it.
        builder.Services.AddProtoHttp().AddServiceOptions<ScriptedTestService>(o => o.Interceptors.Add<TracingInterceptor>("service"));
        builder.Services.AddSingleton<FailingInterceptor>(); // From DI, as a singleton, since it is added without arguments.
        builder.Services.AddProtoHttp(o =>
        {
            o.Interceptors.Add<TracingInterceptor>("global-1");
            o.Interceptors.Add<FailingInterceptor>();
            o.Interceptors.Add<TracingInterceptor>("global-2");
        });
    });

    public async Task DisposeAsync() => await _server.DisposeAsync();

    [Fact]
    public async Task GlobalInterceptorsRunInOrderBeforeTheServicesOwn()
    {
        using var response = await _server.Client.SendAsync(Wire.Post("/test_service.proto/Context", new ContextRequest(), "application/json"));

        Assert.Equal(HttpStatusCode.OK, response.StatusCode);
        Assert.Equal(["global-1", "global-2", "service"], response.Headers.GetValues("x-trace"));
        Assert.Empty(await _server.Logs.ErrorsOnceEndedAsync());
    }

    [Fact]
    public async Task ServicesWithoutOptionsOfTheirOwnRunOnlyTheGlobalInterceptors()
    {
        using var response = await _server.Client.GetAsync("/ProtoService.proto/Search?query=chai");

        Assert.Equal(HttpStatusCode.OK, response.StatusCode);
        Assert.Equal(["global-1", "global-2"], response.Headers.GetValues("x-trace"));
    }

    [Fact]
    public async Task AnInterceptorsRpcExceptionAnswersItsStatus()
    {
        var request = Wire.Post("/test_service.proto/Context", new ContextRequest(), "application/json");
        request.Headers.Add("x-interceptor-fails", "rpc");

        using var response = await _server.Client.SendAsync(request);

        await ErrorTests.AssertErrorAsync(response, HttpStatusCode.Forbidden, "PERMISSION_DENIED", "The interceptor refused the call.");
        Assert.Equal(["global-1"], response.Headers.GetValues("x-trace")); // The service's own interceptor never ran.
        Assert.Contains(_server.Logs.Entries, e => e.EventId.Name == "RpcStatus" && e.Level == LogLevel.Information);
        Assert.Empty(await _server.Logs.ErrorsOnceEndedAsync());
    }

    [Fact]
    public async Task AnInterceptorsOtherExceptionIsTheServicesFailure()
    {
        var request = Wire.Post("/test_service.proto/Context", new ContextRequest(), "application/json");
        request.Headers.Add("x-interceptor-fails", "plain");

        using var response = await _server.Client.SendAsync(request);

        await ErrorTests.AssertErrorAsync(response, HttpStatusCode.InternalServerError, "UNKNOWN", "The service failed to handle the call.");
        var entry = Assert.Single(await _server.Logs.ErrorsOnceEndedAsync());
        Assert.Equal("ServiceFailed", entry.EventId.Name);
        Assert.Equal("Context: the service threw an exception.", entry.Message);
        Assert.Equal("The interceptor broke.", Assert.IsType<InvalidOperationException>(entry.Exception).Message);
    }

    [Fact]
    public async Task TheDeadlineAnswersThroughInterceptors()
    {
        _server.Probe.Reset();
        // The service ignores its token for 10 s: only the deadline can answer. It runs from the call's start, so it
        // leaves a loaded machine time to read the request and call the service through the chain before it passes.
        var request = Wire.Post("/test_service.proto/Slow", new SlowRequest { DelayMs = 10_000, IgnoreCancellation = true }, "application/json");
        request.Headers.Add("Connect-Timeout-Ms", "2000");

        using var response = await _server.Client.SendAsync(request);

        await ErrorTests.AssertErrorAsync(response, HttpStatusCode.GatewayTimeout, "DEADLINE_EXCEEDED", "The deadline of 2000 ms passed before the call completed.");
        await _server.Probe.Started.WaitAsync(TimeSpan.FromSeconds(30)); // The service was activated and called through the chain.
        Assert.Empty(await _server.Logs.ErrorsOnceEndedAsync());
    }

    [Theory]
    [InlineData("text/event-stream")]
    [InlineData("application/connect+proto")]
    public async Task InterceptorsRunAroundStreamingCallsTheirTrailersInTheLastRecord(string format)
    {
        using var response = await _server.Client.SendAsync(
            Wire.Post("/streaming_service.proto/Count", new Protos.Streaming.CountRequest { Count = 2 }, "application/json", format));

        var (messages, end) = await StreamWire.ReadAllAsync<Protos.Streaming.Tick>(response);
        Assert.Equal(2, messages.Count);
        Assert.Equal(["global-1", "global-2"], end.Metadata["x-trace"]);
        Assert.Empty(await _server.Logs.ErrorsOnceEndedAsync());
    }

    [Fact]
    public async Task InterceptorsRunAroundClientStreamingCalls()
    {
        var content = new ByteArrayContent(StreamWire.Envelope(new Protos.Streaming.Tick { Sequence = 3 }, StreamWire.ConnectJson));
        content.Headers.ContentType = new System.Net.Http.Headers.MediaTypeHeaderValue(StreamWire.ConnectJson);

        using var response = await _server.Client.PostAsync("/streaming_service.proto/Sum", content);

        var (messages, end) = await StreamWire.ReadAllAsync<Protos.Streaming.Summary>(response);
        Assert.Equal([3], Assert.Single(messages).Sequences);
        Assert.Equal(["global-1", "global-2"], end.Metadata["x-trace"]);
    }

    [Fact]
    public async Task AnInterceptorsRefusalOfAStreamAnswersItsStatus()
    {
        var request = Wire.Post("/streaming_service.proto/Count", new Protos.Streaming.CountRequest { Count = 2 }, "application/json", "text/event-stream");
        request.Headers.Add("x-interceptor-fails", "rpc");

        using var response = await _server.Client.SendAsync(request);

        await ErrorTests.AssertErrorAsync(response, HttpStatusCode.Forbidden, "PERMISSION_DENIED", "The interceptor refused the call.");
        Assert.Equal(["global-1"], response.Headers.GetValues("x-trace"));
        Assert.Empty(await _server.Logs.ErrorsOnceEndedAsync());
    }

    [Fact]
    public async Task TheServiceIsActivatedFromDiThroughInterceptors()
    {
        _server.Probe.Reset();
        using var response = await _server.Client.SendAsync(Wire.Post("/test_service.proto/Slow", new SlowRequest { DelayMs = 1 }, "application/json"));

        Assert.Equal(HttpStatusCode.OK, response.StatusCode);
        Assert.True((await Wire.ReadAsync<SlowReply>(response)).Completed);
        Assert.True(_server.Probe.Started.IsCompleted);
    }
}
