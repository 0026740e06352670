using System.Net;
using Google.Protobuf;
using ProtoHttp.FunctionalTests.Infrastructure;
using ProtoHttp.FunctionalTests.Protos;

namespace ProtoHttp.FunctionalTests;

public sealed class CallContextTests(SampleServerFixture fixture) : IClassFixture<SampleServerFixture>
{
    private const string Slow = "/test_service.proto/Slow";
    private const string Context = "/test_service.proto/Context";

    // How long a test waits for the server to react before it calls the server hung: what it waits for comes in
    // milliseconds, but a loaded CI machine can hold a thread back for seconds, so this says nothing of speed.
    private static readonly TimeSpan HangGuard = TimeSpan.FromSeconds(30);

    private readonly SampleServer _server = fixture.Server;

    [Theory]
    [InlineData("application/json", false)]
    [InlineData("application/x-protobuf", false)]
    [InlineData("application/json", true)]
    public async Task APassedDeadlineAnswers504AndCancelsTheServiceToken(string format, bool serviceIgnoresToken)
    {
        _server.Probe.Reset();
        // The deadline leaves the service seconds to start even on a loaded machine (it starts within milliseconds of
        // the request), so the service's token is surely there to cancel; the service alone would take 10 s.
        var request = Wire.Post(Slow, new SlowRequest { DelayMs = 10_000, IgnoreCancellation = serviceIgnoresToken }, format);
        request.Headers.Add("Connect-Timeout-Ms", "3000");
        var started = DateTime.UtcNow;

        using var response = await _server.Client.SendAsync(request);

        Assert.True(DateTime.UtcNow - started < TimeSpan.FromSeconds(8), "the 504 must come at the deadline, not when the service ends");
        await ErrorTests.AssertErrorAsync(response, HttpStatusCode.GatewayTimeout, "DEADLINE_EXCEEDED", "The deadline of 3000 ms passed before the call completed.", format);
        Assert.True(_server.Probe.Started.IsCompleted, "the service had not started when the deadline passed");
        await _server.Probe.Cancelled.WaitAsync(HangGuard);
    }

    [Fact]
    public async Task ACallWithinItsDeadlineCompletesAndSeesTheDeadline()
    {
        var slow = Wire.Post(Slow, new SlowRequest { DelayMs = 10 }, "application/json");
        slow.Headers.Add("Connect-Timeout-Ms", "5000");
        var context = Wire.Post(Context, new ContextRequest(), "application/json");
        context.Headers.Add("Connect-Timeout-Ms", "5000");

        using var slowResponse = await _server.Client.SendAsync(slow);
        using var contextResponse = await _server.Client.SendAsync(context);

        Assert.True((await Wire.ReadAsync<SlowReply>(slowResponse)).Completed);
        Assert.True((await Wire.ReadAsync<ContextReply>(contextResponse)).HasDeadline);
    }

    [Fact]
    public async Task AClientThatGoesAwayCancelsTheServiceToken()
    {
        var errorsBefore = await _server.Logs.ErrorCountOnceEndedAsync();
        _server.Probe.Reset();
        using var cancel = new CancellationTokenSource();
        var call = _server.Client.SendAsync(Wire.Post(Slow, new SlowRequest { DelayMs = 30_000 }, "application/x-protobuf"), cancel.Token);
        await _server.Probe.Started.WaitAsync(HangGuard);

        await cancel.CancelAsync();

        await Assert.ThrowsAnyAsync<OperationCanceledException>(() => call);
        await _server.Probe.Cancelled.WaitAsync(HangGuard);
        await WaitForAsync(() => _server.Logs.Entries.Any(e => e.EventId.Name == "ClientDisconnected"));
        Assert.Empty((await _server.Logs.ErrorsOnceEndedAsync()).Skip(errorsBefore));
    }

    [Fact]
    public async Task RequestHeadersReachTheServiceAsMetadata()
    {
        var request = Wire.Post(Context, new ContextRequest(), "application/json");
        request.Headers.Add("X-Tenant", "north");
        request.Headers.Add("Trace-Bin", Convert.ToBase64String([1, 2, 3, 250]));

        using var response = await _server.Client.SendAsync(request);

        var reply = await Wire.ReadAsync<ContextReply>(response);
        Assert.Equal("north", reply.RequestHeaders["x-tenant"]);
        Assert.Equal(new byte[] { 1, 2, 3, 250 }, reply.BinaryRequestHeader.ToByteArray());
        Assert.Equal("/protohttp.tests.TestService/Context", reply.Method);
        Assert.StartsWith("ipv4:127.0.0.1:", reply.Peer);
        Assert.True(reply.HasHttpContext);
        Assert.False(reply.HasDeadline);
    }

    [Fact]
    public async Task AnInvalidBinaryHeaderIs400NamingIt()
    {
        var request = Wire.Post(Context, new ContextRequest(), "application/json");
        request.Headers.Add("Trace-Bin", "not base64!");

        using var response = await _server.Client.SendAsync(request);

        var error = await ErrorTests.AssertErrorAsync(response, HttpStatusCode.BadRequest, "INVALID_ARGUMENT");
        Assert.Contains("trace-bin", error.ErrorText);
    }

    [Fact]
    public async Task GrpcDotnetsGetHttpContextReachesTheCallsHttpContext()
    {
        using var response = await _server.Client.SendAsync(Wire.Post(Context, new ContextRequest(), "application/json"));

        Assert.Equal(HttpStatusCode.OK, response.StatusCode);
        var reply = await Wire.ReadAsync<ContextReply>(response);
        Assert.Equal(Context, reply.HttpPath);
        Assert.False(reply.PeerAuthenticated); // Plain HTTP: no client certificate, no peer identity.
        Assert.Empty(reply.PeerIdentity);
    }

    [Fact]
    public async Task ResponseHeadersAndTrailersTheServiceSetsGoOutAsHeaders()
    {
        var message = new ContextRequest { BinaryHeader = ByteString.CopyFrom(9, 8, 7) };
        message.ResponseHeaders.Add("x-served-by", "test");
        message.ResponseTrailers.Add("x-row-count", "42");

        using var response = await _server.Client.SendAsync(Wire.Post(Context, message, "application/x-protobuf"));

        Assert.Equal(HttpStatusCode.OK, response.StatusCode);
        Assert.Equal("test", Assert.Single(response.Headers.GetValues("x-served-by")));
        Assert.Equal("42", Assert.Single(response.Headers.GetValues("x-row-count")));
        Assert.Equal(Convert.ToBase64String([9, 8, 7]), Assert.Single(response.Headers.GetValues("echo-bin")));
    }

    private static async Task WaitForAsync(Func<bool> condition)
    {
        for (var deadline = DateTime.UtcNow + HangGuard; !condition(); await Task.Delay(20))
        {
            Assert.True(DateTime.UtcNow < deadline, $"Waited {HangGuard} for the server's log line.");
        }
    }
}
