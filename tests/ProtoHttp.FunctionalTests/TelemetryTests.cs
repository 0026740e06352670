using System.Collections.Concurrent;
using System.Diagnostics;
using System.Diagnostics.Metrics;
using System.Net;
using Grpc.Core;
using Microsoft.AspNetCore.Routing;
using Microsoft.Extensions.DependencyInjection;
using Microsoft.Extensions.DependencyInjection.Extensions;
using ProtoHttp.AspNetCore;
using ProtoHttp.AspNetCore.Pipeline;
using ProtoHttp.FunctionalTests.Infrastructure;
using ProtoHttp.FunctionalTests.Protos;
using ProtoHttp.FunctionalTests.Protos.Streaming;
using ProtoService;

namespace ProtoHttp.FunctionalTests;

/// <summary>
/// Calls over HTTP, read back through <see cref="ActivityListener"/> and <see cref="MeterListener"/> as OpenTelemetry
/// would: one activity and one duration per call, tagged with the RPC conventions' system, service, method and status.
/// </summary>
/// <remarks>
/// The listeners hear every call in the process, so this class runs alone: a Search another class sent at the same
/// moment would otherwise be taken for this one's, with another size or status.
/// </remarks>
[Collection(nameof(TelemetryTests))]
public sealed class TelemetryTests(SampleServerFixture fixture) : IClassFixture<SampleServerFixture>, IDisposable
{
    private readonly SampleServer _server = fixture.Server;
    private readonly ConcurrentQueue<Activity> _activities = new();
    private readonly ConcurrentQueue<(string Instrument, double Value, Dictionary<string, object?> Tags)> _measurements = new();
    private ActivityListener? _activityListener;
    private MeterListener? _meterListener;

    public void Dispose()
    {
        _activityListener?.Dispose();
        _meterListener?.Dispose();
    }

    [Fact]
    public async Task AUnaryCallIsOneActivityAndOneDuration()
    {
        Listen();

        using var response = await _server.Client.SendAsync(Wire.Post("/ProtoService.proto/Search", new SearchRequest { Query = "chai" }, "application/x-protobuf"));

        Assert.Equal(HttpStatusCode.OK, response.StatusCode);
        var activity = await SingleAsync(a => a.GetTagItem("rpc.method") as string == "Search" && a.GetTagItem("rpc.system") as string == "protohttp");
        Assert.Equal("ProtoService.SearchService", activity.GetTagItem("rpc.service"));
        Assert.Equal(0, activity.GetTagItem("rpc.grpc.status_code"));
        Assert.Equal(ActivityStatusCode.Unset, activity.Status);
        var duration = Assert.Single(_measurements, m => m.Instrument == "rpc.server.call.duration" && m.Tags["rpc.method"] as string == "Search");
        Assert.Equal("protohttp", duration.Tags["rpc.system"]);
        Assert.True(duration.Value > 0);
        Assert.Equal(0, duration.Tags["rpc.grpc.status_code"]);
        var size = await MeasurementAsync("rpc.server.response.size", "Search", "protohttp");
        Assert.Equal(response.Content.Headers.ContentLength, (long)size.Value);
    }

    [Fact]
    public async Task AFailedCallCarriesItsStatus()
    {
        Listen();

        using var response = await _server.Client.SendAsync(Wire.Post("/test_service.proto/Fail", new FailRequest { Code = "NOT_FOUND", Detail = "gone" }, "application/json"));

        Assert.Equal(HttpStatusCode.NotFound, response.StatusCode);
        var activity = await SingleAsync(a => a.GetTagItem("rpc.method") as string == "Fail" && a.GetTagItem("rpc.system") as string == "protohttp");
        Assert.Equal((int)Grpc.Core.StatusCode.NotFound, activity.GetTagItem("rpc.grpc.status_code"));
        Assert.Equal(ActivityStatusCode.Error, activity.Status);
    }

    [Fact]
    public async Task AConnectCallIsTaggedConnectRpc()
    {
        Listen();

        using var response = await _server.Client.SendAsync(Wire.Post("/protohttp.tests.TestService/Fail", new FailRequest { Code = "ABORTED" }, "application/proto"));

        Assert.Equal(HttpStatusCode.Conflict, response.StatusCode);
        var activity = await SingleAsync(a => a.GetTagItem("rpc.method") as string == "Fail" && a.GetTagItem("rpc.system") as string == "connect_rpc");
        Assert.Equal("aborted", activity.GetTagItem("rpc.connect_rpc.error_code"));
    }

    [Fact]
    public async Task ACallOverWebSocketIsOneActivityWithItsStatusAndCountsAsAStream()
    {
        Listen();

        await using (var call = await WebSockets.WebSocketCall.OpenAsync(_server.Http1Address, "/NorthwindStreams.proto/QuoteLines"))
        {
            await call.SendAsync(new Northwind.OrderLine { ProductId = 999_999, Quantity = 1 });
            var (_, end, _) = await call.ReadToEndAsync(Northwind.Quote.Parser);
            Assert.Equal("not_found", end.GetProperty("error").GetProperty("code").GetString());
        }

        var activity = await SingleAsync(a => a.GetTagItem("rpc.method") as string == "QuoteLines" && a.GetTagItem("rpc.system") as string == "protohttp");
        Assert.Equal("Northwind.NorthwindStreams", activity.GetTagItem("rpc.service"));
        Assert.Equal((int)Grpc.Core.StatusCode.NotFound, activity.GetTagItem("rpc.grpc.status_code"));
        await MeasurementAsync("rpc.server.active_streams", "QuoteLines", "protohttp", value: 1);
        await MeasurementAsync("rpc.server.active_streams", "QuoteLines", "protohttp", value: -1);
    }

    [Fact]
    public async Task AStreamCountsAsActiveWhileItRuns()
    {
        Listen();
        var request = new HttpRequestMessage(HttpMethod.Post, "/streaming_service.proto/Count")
        {
            Content = Wire.Body(new CountRequest { Count = 2 }, "application/json"),
        };

        using var response = await _server.Client.SendAsync(request);
        await response.Content.ReadAsByteArrayAsync();

        var started = await MeasurementAsync("rpc.server.active_streams", "Count", "protohttp", value: 1);
        var ended = await MeasurementAsync("rpc.server.active_streams", "Count", "protohttp", value: -1);
        Assert.Equal("protohttp.tests.streaming.StreamingService", started.Tags["rpc.service"]);
        Assert.Equal(started.Tags["rpc.service"], ended.Tags["rpc.service"]);
    }

    [Fact]
    public async Task AnAddedProtocolsCallsAreTaggedAsItsEndpointMetadataSays()
    {
        await using var server = await SampleServer.StartAsync(configure: builder =>
            builder.Services.TryAddEnumerable(ServiceDescriptor.Singleton<CallProtocol, RelabeledProtocol>()));
        var endpoints = server.Services.GetRequiredService<EndpointDataSource>().Endpoints
            .Select(endpoint => endpoint.Metadata.GetMetadata<ProtoHttpMethodMetadata>())
            .Where(metadata => metadata?.Protocol == RelabeledProtocol.Protocol)
            .ToList();
        var search = Assert.Single(endpoints, metadata => metadata!.Method.Name == "Search")!;
        var count = Assert.Single(endpoints, metadata => metadata!.Method.Name == "Count")!;
        Listen();

        using var unary = await server.Client.SendAsync(Wire.Post(
            RelabeledProtocol.PathPrefix + "/ProtoService.proto/Search", new SearchRequest { Query = "chai" }, "application/json"));
        using var stream = await server.Client.SendAsync(new HttpRequestMessage(HttpMethod.Post, RelabeledProtocol.PathPrefix + "/streaming_service.proto/Count")
        {
            Content = Wire.Body(new CountRequest { Count = 2 }, "application/json"),
        });
        await stream.Content.ReadAsByteArrayAsync();

        Assert.Equal(HttpStatusCode.OK, unary.StatusCode);
        Assert.Equal(HttpStatusCode.OK, stream.StatusCode);
        Assert.Equal(RelabeledProtocol.RpcSystem, search.RpcSystem);
        var activity = await SingleAsync(a => a.GetTagItem("rpc.method") as string == "Search" && a.GetTagItem("rpc.system") as string == search.RpcSystem, server);
        Assert.Equal(search.Method.Service.FullName, activity.GetTagItem("rpc.service"));
        Assert.Equal($"{search.Method.Service.FullName}/{search.Method.Name}", activity.DisplayName);
        var duration = await MeasurementAsync("rpc.server.call.duration", "Search", search.RpcSystem, server: server);
        Assert.Equal(0, duration.Tags["rpc.grpc.status_code"]);
        // The endpoint's kind decides that the stream is counted as active, in and out, under the added protocol's name.
        Assert.Equal(MethodType.ServerStreaming, count.Kind);
        var started = await MeasurementAsync("rpc.server.active_streams", "Count", count.RpcSystem, value: 1, server);
        await MeasurementAsync("rpc.server.active_streams", "Count", count.RpcSystem, value: -1, server);
        Assert.Equal(count.Method.Service.FullName, started.Tags["rpc.service"]);
        Assert.DoesNotContain(_measurements, m => m.Tags.GetValueOrDefault("rpc.system") as string == "protohttp");
    }

    private void Listen()
    {
        _activityListener = new ActivityListener
        {
            ShouldListenTo = source => source.Name == ProtoHttpInstrumentation.ActivitySourceName,
            Sample = (ref ActivityCreationOptions<ActivityContext> _) => ActivitySamplingResult.AllDataAndRecorded,
            ActivityStopped = _activities.Enqueue,
        };
        ActivitySource.AddActivityListener(_activityListener);

        _meterListener = new MeterListener
        {
            InstrumentPublished = (instrument, listener) =>
            {
                if (instrument.Meter.Name == ProtoHttpInstrumentation.MeterName)
                {
                    listener.EnableMeasurementEvents(instrument);
                }
            },
        };
        _meterListener.SetMeasurementEventCallback<double>((instrument, value, tags, _) => Record(instrument, value, tags));
        _meterListener.SetMeasurementEventCallback<long>((instrument, value, tags, _) => Record(instrument, value, tags));
        _meterListener.Start();
    }

    private void Record(Instrument instrument, double value, ReadOnlySpan<KeyValuePair<string, object?>> tags)
    {
        var copy = new Dictionary<string, object?>();
        foreach (var tag in tags)
        {
            copy[tag.Key] = tag.Value;
        }

        _measurements.Enqueue((instrument.Name, value, copy));
    }

    // The activity stops in the call's handler, after the last byte went out and so a moment after the client has
    // it; the request's end in the server comes after that, and then no more activities of this call can come. Each
    // test's listeners start with the test, and the tests run one at a time, so only this test's call can match.
    private async Task<Activity> SingleAsync(Func<Activity, bool> match, SampleServer? server = null)
    {
        await (server ?? _server).Logs.WhenRequestsEndedAsync();
        return Assert.Single(_activities, a => match(a));
    }

    private async Task<(double Value, Dictionary<string, object?> Tags)> MeasurementAsync(
        string instrument, string method, string system, double? value = null, SampleServer? server = null)
    {
        await (server ?? _server).Logs.WhenRequestsEndedAsync(); // As for the activity: after the request's end, every measurement of it is in.
        var found = Assert.Single(_measurements, m => m.Instrument == instrument && m.Tags["rpc.method"] as string == method
            && m.Tags["rpc.system"] as string == system && (value is null || m.Value == value));
        return (found.Value, found.Tags);
    }
}
