using System.Net;
using Microsoft.AspNetCore.Builder;
using Microsoft.Extensions.DependencyInjection;
using ProtoHttp.FunctionalTests.Infrastructure;
using ProtoHttp.FunctionalTests.Protos;
using ProtoHttp.FunctionalTests.Protos.Streaming;
using ProtoHttp.FunctionalTests.Services;

namespace ProtoHttp.FunctionalTests;

/// <summary>
/// A service class ProtoHttp makes per call (one DI does not make) is disposed when its call ends, once, and only after
/// the service returned: for every method kind, with and without interceptors (each runs its own code path), whether
/// the call succeeds, the service throws, the client leaves or the deadline passes.
/// </summary>
public sealed class ServiceDisposalTests
{
    public enum Outcome
    {
        Succeeds,
        ServiceThrows,
        ClientLeaves,
        DeadlinePasses,
    }

    public static TheoryData<Outcome, bool> EveryOutcome()
    {
        var data = new TheoryData<Outcome, bool>();
        foreach (var outcome in Enum.GetValues<Outcome>())
        {
            data.Add(outcome, false);
            data.Add(outcome, true);
        }

        return data;
    }

    [Theory]
    [MemberData(nameof(EveryOutcome))]
    public async Task AUnaryCallsServiceIsDisposedWhenTheCallEnds(Outcome outcome, bool intercepted)
    {
        await using var server = await StartAsync(intercepted);
        var client = server.Client;
        switch (outcome)
        {
            case Outcome.Succeeds:
                using (var response = await client.SendAsync(Wire.Post("/test_service.proto/Echo", new Tree { Name = "a" }, "application/x-protobuf")))
                {
                    Assert.Equal(HttpStatusCode.OK, response.StatusCode);
                }

                break;
            case Outcome.ServiceThrows:
                using (var response = await client.SendAsync(Wire.Post("/test_service.proto/Fail", new FailRequest { Detail = "boom" }, "application/x-protobuf")))
                {
                    Assert.Equal(HttpStatusCode.InternalServerError, response.StatusCode);
                }

                break;
            case Outcome.ClientLeaves:
                using (var leave = new CancellationTokenSource())
                {
                    var call = client.SendAsync(Wire.Post("/test_service.proto/Slow", new SlowRequest { DelayMs = 60_000 }, "application/x-protobuf"), leave.Token);
                    await server.Probe.Started.WaitAsync(TimeSpan.FromSeconds(30));
                    await leave.CancelAsync();
                    await Assert.ThrowsAnyAsync<OperationCanceledException>(() => call);
                }

                break;
            case Outcome.DeadlinePasses:
                using (var response = await client.SendAsync(Deadline(Wire.Post("/test_service.proto/Slow", new SlowRequest { DelayMs = 60_000 }, "application/x-protobuf"))))
                {
                    Assert.Equal(HttpStatusCode.GatewayTimeout, response.StatusCode);
                }

                break;
        }

        await AssertReleasedOnceAsync(server);
    }

    [Theory]
    [MemberData(nameof(EveryOutcome))]
    public async Task AServerStreamsServiceIsDisposedWhenTheCallEnds(Outcome outcome, bool intercepted)
    {
        await using var server = await StartAsync(intercepted);
        using var http2 = server.CreateHttp2Client();
        var request = outcome switch
        {
            Outcome.Succeeds => new CountRequest { Count = 3 },
            Outcome.ServiceThrows => new CountRequest { Count = 3, FailAfter = 1, FailCode = "PLAIN" },
            _ => new CountRequest { Count = 1, WaitForCancellation = true },
        };
        var message = Wire.Post("/streaming_service.proto/Count", request, "application/x-protobuf", StreamWire.ConnectProto);
        if (outcome == Outcome.DeadlinePasses)
        {
            Deadline(message);
        }

        using (var response = await new StreamingClient(http2, http2: true).SendAsync(message, HttpCompletionOption.ResponseHeadersRead))
        {
            Assert.Equal(HttpStatusCode.OK, response.StatusCode);
            if (outcome == Outcome.ClientLeaves)
            {
                await using var records = StreamWire.ReadAsync<Tick>(response).GetAsyncEnumerator();
                Assert.True(await records.MoveNextAsync());
            }
            else
            {
                var (_, end) = await StreamWire.ReadAllAsync<Tick>(response);
                Assert.Equal(EndCode(outcome), end.Code);
            }
        }

        await AssertReleasedOnceAsync(server);
    }

    [Theory]
    [MemberData(nameof(EveryOutcome))]
    public async Task AClientStreamsServiceIsDisposedWhenTheCallEnds(Outcome outcome, bool intercepted)
    {
        await using var server = await StartAsync(intercepted);
        using var http2 = server.CreateHttp2Client();
        var upload = new EnvelopeUpload(StreamWire.ConnectProto).WithType();
        var message = new HttpRequestMessage(HttpMethod.Post, "/streaming_service.proto/Sum") { Content = upload };
        message.Headers.TryAddWithoutValidation("Accept", StreamWire.ConnectProto);
        if (outcome == Outcome.DeadlinePasses)
        {
            Deadline(message);
        }

        using var leave = new CancellationTokenSource();
        var call = new StreamingClient(http2, http2: true).SendAsync(message, HttpCompletionOption.ResponseHeadersRead, leave.Token);
        await upload.WriteAsync(new Tick { Sequence = 0, Text = outcome == Outcome.ServiceThrows ? "fail:PLAIN" : "" });
        await server.StreamProbe.Started.WaitAsync(TimeSpan.FromSeconds(30));
        if (outcome == Outcome.Succeeds)
        {
            upload.Complete();
        }

        if (outcome == Outcome.ClientLeaves)
        {
            // The request is still open, so the client resets the stream.
            await leave.CancelAsync();
            await Assert.ThrowsAnyAsync<OperationCanceledException>(() => call);
        }
        else
        {
            // A client stream's one answer is written only when the service returns, so a failure is the HTTP status.
            using var response = await call;
            Assert.Equal(outcome switch
            {
                Outcome.Succeeds => HttpStatusCode.OK,
                Outcome.ServiceThrows => HttpStatusCode.InternalServerError,
                _ => HttpStatusCode.GatewayTimeout,
            }, response.StatusCode);
            upload.Complete();
        }

        await AssertReleasedOnceAsync(server);
    }

    [Theory]
    [MemberData(nameof(EveryOutcome))]
    public async Task ADuplexServiceIsDisposedWhenTheCallEnds(Outcome outcome, bool intercepted)
    {
        await using var server = await StartAsync(intercepted);
        using var http2 = server.CreateHttp2Client();
        var upload = new EnvelopeUpload(StreamWire.ConnectProto).WithType();
        var message = new HttpRequestMessage(HttpMethod.Post, "/streaming_service.proto/Echo") { Content = upload };
        message.Headers.TryAddWithoutValidation("Accept", StreamWire.ConnectProto);
        if (outcome == Outcome.DeadlinePasses)
        {
            Deadline(message);
        }

        using var leave = new CancellationTokenSource();
        // The first echo goes out before anything ends the call, so every ending is the stream's last record.
        await upload.WriteAsync(new Tick { Sequence = 0, Text = outcome is Outcome.ClientLeaves or Outcome.DeadlinePasses ? "hold" : "" });
        if (outcome == Outcome.ServiceThrows)
        {
            await upload.WriteAsync(new Tick { Sequence = 1, Text = "fail:PLAIN" });
        }

        if (outcome is Outcome.Succeeds or Outcome.ServiceThrows)
        {
            upload.Complete();
        }

        using (var response = await new StreamingClient(http2, http2: true).SendAsync(message, HttpCompletionOption.ResponseHeadersRead, leave.Token))
        {
            Assert.Equal(HttpStatusCode.OK, response.StatusCode);
            if (outcome == Outcome.ClientLeaves)
            {
                await using var records = StreamWire.ReadAsync<Tick>(response).GetAsyncEnumerator();
                Assert.True(await records.MoveNextAsync());
                await leave.CancelAsync();
            }
            else
            {
                var (_, end) = await StreamWire.ReadAllAsync<Tick>(response);
                Assert.Equal(EndCode(outcome), end.Code);
            }
        }

        upload.Complete();
        await AssertReleasedOnceAsync(server);
    }

    private static async Task<SampleServer> StartAsync(bool intercepted) => await SampleServer.StartAsync(
        configure: builder =>
        {
            builder.Services.AddSingleton<DisposalProbe>();
            if (intercepted)
            {
                builder.Services.AddProtoHttp(o => o.Interceptors.Add<TracingInterceptor>("disposal"));
            }
        },
        map: app =>
        {
            app.MapProtoService<DisposableTestService>();
            app.MapProtoService<DisposableStreamingService>();
        },
        mapTestServices: false);

    // Seconds for the service to start even on a loaded machine; the service alone would wait a minute or for its token.
    private static HttpRequestMessage Deadline(HttpRequestMessage request)
    {
        request.Headers.Add("Connect-Timeout-Ms", "3000");
        return request;
    }

    private static string EndCode(Outcome outcome) => outcome switch
    {
        Outcome.Succeeds => "OK",
        Outcome.ServiceThrows => "UNKNOWN",
        _ => "DEADLINE_EXCEEDED",
    };

    private static async Task AssertReleasedOnceAsync(SampleServer server)
    {
        var probe = server.Services.GetRequiredService<DisposalProbe>();
        Assert.True(await probe.NextReleaseAsync(), "the call's service instance was never disposed");
        await server.Logs.WhenRequestsEndedAsync();
        Assert.Equal(1, probe.Created);
        Assert.Equal(1, probe.Releases);
        Assert.Equal(0, probe.ReleasedWhileRunning);
        Assert.Equal(0, probe.ReleasedTwice);
    }
}
