using Grpc.Core;
using Microsoft.AspNetCore.Http;
using ProtoHttp.AspNetCore;
using ProtoHttp.AspNetCore.Pipeline;
using ProtoHttp.AspNetCore.Protocols.Native;

namespace ProtoHttp.Tests.Pipeline;

/// <summary>The per-call object: the deadline it runs under, what it says of the service's answer, what it leads back to.</summary>
public class ProtoHttpServerCallContextTests
{
    private readonly PipelineHarness _harness = new();

    [Fact]
    public async Task UntilItsDeadlineStartsACallRunsUnderTheRequestsOwnToken()
    {
        using var aborted = new CancellationTokenSource();
        var http = _harness.Request("POST");
        http.RequestAborted = aborted.Token;
        var call = Call(http);

        Assert.Equal(DateTime.MaxValue, call.Deadline);
        Assert.Equal(aborted.Token, call.CancellationToken);

        var before = DateTime.UtcNow;
        call.StartDeadline(TimeSpan.FromMilliseconds(1));
        Assert.InRange(call.Deadline, before, DateTime.UtcNow.AddSeconds(1));
        Assert.Equal(TimeSpan.FromMilliseconds(1), call.Timeout);
        await Task.Delay(Timeout.Infinite, call.CancellationToken).ContinueWith(_ => { }, TaskScheduler.Default).WaitAsync(TimeSpan.FromSeconds(30));
        Assert.True(call.DeadlineExpired);
        await call.EndAsync(StatusCode.DeadlineExceeded);
    }

    [Fact]
    public async Task AServiceThatOutlivesItsCallStillReadsItsToken()
    {
        // Past its deadline a call answers without waiting for the service and ends, disposing its timer; the service,
        // still running, asks its token whether it fired. Asked of the disposed timer, that threw ObjectDisposedException.
        var expired = Call(_harness.Request("POST"));
        expired.StartDeadline(TimeSpan.FromMilliseconds(1));
        await Task.Delay(Timeout.Infinite, expired.CancellationToken).ContinueWith(_ => { }, TaskScheduler.Default).WaitAsync(TimeSpan.FromSeconds(30));
        await expired.EndAsync(StatusCode.DeadlineExceeded);

        Assert.True(expired.CancellationToken.IsCancellationRequested);
        await Assert.ThrowsAnyAsync<OperationCanceledException>(() => Task.Delay(Timeout.Infinite, expired.CancellationToken));

        // A call that ended within its deadline: its token is still there to read, and did not fire.
        var completed = Call(_harness.Request("POST"));
        completed.StartDeadline(TimeSpan.FromMinutes(5));
        await completed.EndAsync(StatusCode.OK);

        Assert.False(completed.CancellationToken.IsCancellationRequested);
    }

    [Fact]
    public void AStatusTheServiceSetIsThrownWhenItReturnsAndTheBlameReturnsToProtoHttp()
    {
        var call = Call(_harness.Request("POST"));
        call.FromService = true;
        call.Status = new Status(StatusCode.FailedPrecondition, "Closed.");

        var thrown = Assert.Throws<RpcException>(call.ServiceReturned);

        Assert.Equal(StatusCode.FailedPrecondition, thrown.StatusCode);
        Assert.False(call.FromService);
    }

    [Fact]
    public void TrailersAreMadeOnlyWhenTheServiceSetsOne()
    {
        var call = Call(_harness.Request("POST"));
        Assert.Null(call.TrailersOrNull);

        _ = call.ResponseTrailers;
        Assert.Null(call.TrailersOrNull);

        call.ResponseTrailers.Add("k", "v");
        Assert.Equal("v", call.TrailersOrNull!.GetValue("k"));
    }

    [Fact]
    public void TheCallLeadsToItsHttpContextAlsoWhereGrpcDotnetLooksForIt()
    {
        var http = _harness.Request("POST");
        var call = Call(http);

        Assert.Same(http, call.GetProtoHttpContext());
        Assert.Same(http, call.UserState[ProtoHttpServerCallContext.HttpContextKey]);
    }

    [Fact]
    public void TheServiceSeesTheMethodsFullNameAndThePeer()
    {
        var http = _harness.Request("POST");
        http.Connection.RemoteIpAddress = System.Net.IPAddress.Loopback;
        http.Connection.RemotePort = 5000;

        var call = Call(http);

        Assert.Equal("/protohttp.tests.pipeline.PipelineService/Echo", call.Method);
        Assert.Equal("ipv4:127.0.0.1:5000", call.Peer);
    }

    [Fact]
    public void AnUnobservedCallWithoutATimeoutAllocatesItsOneObjectAndNothingElse()
    {
        // BENCHMARKS.md's 100 bytes per small call: the call's object holds only what every call uses; trailers, a
        // status, a deadline's timer, telemetry and streams are made only for the calls that have them.
        var route = _harness.Route("Echo", NativeProtocol.Instance);
        RunUnaryLifecycle(new ProtoHttpServerCallContext(_harness.Request("POST"), route)); // statics and JIT first
        var http = _harness.Request("POST");
        _ = http.RequestAborted; // DefaultHttpContext makes its lifetime feature on first use; Kestrel's connection is one.

        var before = GC.GetAllocatedBytesForCurrentThread();
        var (deadline, token, trailers, errorType, ended) = RunUnaryLifecycle(new ProtoHttpServerCallContext(http, route));
        var allocated = GC.GetAllocatedBytesForCurrentThread() - before;

        Assert.Equal((DateTime.MaxValue, http.RequestAborted, false, null, true), (deadline, token, trailers, errorType, ended));
        Assert.InRange(allocated, 1, 72);
    }

    // What the lifecycle does with an unobserved unary call that completes at once; asserts nothing, so that only the
    // call's own allocations are counted.
    private static (DateTime Deadline, CancellationToken Token, bool Trailers, WritableMediaType? ErrorType, bool Ended) RunUnaryLifecycle(
        ProtoHttpServerCallContext call)
    {
        call.StartTelemetry();
        call.StartDeadline(timeout: null);
        var seen = (call.Deadline, call.CancellationToken, call.HasResponseTrailers, call.ErrorType);
        call.FromService = true;
        call.ServiceReturned();
        var end = call.EndAsync(StatusCode.OK);
        return (seen.Deadline, seen.CancellationToken, seen.HasResponseTrailers, seen.ErrorType, end.IsCompletedSuccessfully);
    }

    private ProtoHttpServerCallContext Call(HttpContext http) => new(http, _harness.Route("Echo", NativeProtocol.Instance));
}
