using System.Net;
using System.Net.Sockets;
using System.Text;
using System.Text.Json;
using Google.Protobuf;
using Microsoft.AspNetCore.Builder;
using Microsoft.AspNetCore.Hosting;
using Microsoft.AspNetCore.Server.Kestrel.Core;
using ProtoHttp.FunctionalTests.Infrastructure;
using ProtoHttp.FunctionalTests.Protos;

namespace ProtoHttp.FunctionalTests.Hardening;

/// <summary>
/// Clients that misbehave on the wire: one that sends its body too slowly (Kestrel's minimum data rate), one that
/// goes away mid-body, one that resets the connection mid-call. Each is closed cleanly, with no Error log, and the
/// server keeps serving.
/// </summary>
public sealed class ConnectionLimitTests : IAsyncLifetime
{
    private const string Slow = "/test_service.proto/Slow";
    private const string ConnectSlow = "/protohttp.tests.TestService/Slow";

    private SampleServer _server = null!;

    public async Task InitializeAsync() => _server = await SampleServer.StartAsync(configure: builder =>
        builder.WebHost.ConfigureKestrel(kestrel =>
            // 100 bytes/s after a 2 s grace period: small enough for a test, the same mechanism as the default 240 bytes/s over 5 s.
            kestrel.Limits.MinRequestBodyDataRate = new MinDataRate(bytesPerSecond: 100, gracePeriod: TimeSpan.FromSeconds(2))));

    public async Task DisposeAsync() => await _server.DisposeAsync();

    [Theory]
    [InlineData(Slow, "DEADLINE_EXCEEDED")]
    [InlineData(ConnectSlow, "deadline_exceeded")]
    public async Task ABodyThatTricklesInIsCutOffWith408DeadlineExceededWithoutAnErrorLog(string path, string code)
    {
        _server.Probe.Reset();
        using var tcp = await ConnectAsync();
        var stream = tcp.GetStream();
        await stream.WriteAsync(Head(path, "application/json", 10_000)); // Declared, and never all sent.

        // One byte (JSON whitespace) every 200 ms (5 bytes/s) for at most 20 s, until the server answers or closes.
        var answer = ReadResponseAsync(stream);
        var started = DateTime.UtcNow;
        for (var i = 0; i < 100 && !answer.IsCompleted; i++)
        {
            try
            {
                await stream.WriteAsync(" "u8.ToArray());
            }
            catch (IOException)
            {
                break; // Closed by the server.
            }

            await Task.Delay(200);
        }

        var (statusLine, body) = await answer.WaitAsync(TimeSpan.FromSeconds(10));
        Assert.True(DateTime.UtcNow - started < TimeSpan.FromSeconds(15), "the rate limit must cut the client off after its grace period");
        await _server.Logs.WhenRequestsEndedAsync(); // Then every log line of the request is in.
        // Kestrel's verdict reaches the error funnel, which answers it in the route's own error format, the same status
        // and code on ProtoHttp's route and on Connect's.
        Assert.Equal("HTTP/1.1 408 Request Timeout", statusLine);
        using (var error = JsonDocument.Parse(body))
        {
            Assert.Equal(code, error.RootElement.GetProperty("code").GetString());
        }

        Assert.Contains(_server.Logs.Entries, e => e.EventId.Name == "BadRequestBody" && e.Message.Contains("MinRequestBodyDataRate", StringComparison.Ordinal));
        Assert.False(_server.Probe.Started.IsCompleted, "the service must not be called with a body that never arrived");
        await AssertStillServingWithoutErrorsAsync();
    }

    [Fact]
    public async Task AClientThatGoesAwayMidBodyLeavesNoErrorLog()
    {
        _server.Probe.Reset();
        using (var tcp = await ConnectAsync())
        {
            var stream = tcp.GetStream();
            await stream.WriteAsync(Head(Slow, "application/json", 1_000));
            await stream.WriteAsync(Encoding.ASCII.GetBytes("{\"delayMs\":"));
            // Gone only once the server is reading the body: Kestrel's line when the app starts to read it.
            await WaitForAsync(() => _server.Logs.Entries.Any(e => e.EventId.Name == "RequestBodyStart"));
            tcp.Client.LingerState = new LingerOption(enable: true, seconds: 0); // Closed with a reset, as a crashed client would.
        }

        await WaitForAsync(() => _server.Logs.Entries.Any(e => e.EventId.Name is "BadRequestBody" or "ClientDisconnected"));
        Assert.False(_server.Probe.Started.IsCompleted);
        await AssertStillServingWithoutErrorsAsync();
    }

    [Fact]
    public async Task AConnectionResetMidCallCancelsTheServiceToken()
    {
        _server.Probe.Reset();
        using (var tcp = await ConnectAsync())
        {
            var body = new SlowRequest { DelayMs = 30_000 }.ToByteArray();
            var stream = tcp.GetStream();
            await stream.WriteAsync(Head(Slow, "application/x-protobuf", body.Length));
            await stream.WriteAsync(body);
            await _server.Probe.Started.WaitAsync(TimeSpan.FromSeconds(10));
            tcp.Client.LingerState = new LingerOption(enable: true, seconds: 0);
        }

        await _server.Probe.Cancelled.WaitAsync(TimeSpan.FromSeconds(10));
        await WaitForAsync(() => _server.Logs.Entries.Any(e => e.EventId.Name == "ClientDisconnected"));
        await AssertStillServingWithoutErrorsAsync();
    }

    private async Task AssertStillServingWithoutErrorsAsync()
    {
        using var response = await _server.Client.SendAsync(Wire.Post(Slow, new SlowRequest { DelayMs = 1 }, "application/x-protobuf"));
        Assert.Equal(HttpStatusCode.OK, response.StatusCode);
        Assert.Empty(await _server.Logs.ErrorsOnceEndedAsync());
    }

    private async Task<TcpClient> ConnectAsync()
    {
        var tcp = new TcpClient();
        await tcp.ConnectAsync(_server.Http1Address.Host, _server.Http1Address.Port);
        return tcp;
    }

    private static byte[] Head(string path, string contentType, int contentLength) => Encoding.ASCII.GetBytes(
        $"POST {path} HTTP/1.1\r\nHost: localhost\r\nContent-Type: {contentType}\r\nContent-Length: {contentLength}\r\n\r\n");

    /// <summary>The status line and the body of the answer the server sends before it closes the connection.</summary>
    private static async Task<(string? StatusLine, string Body)> ReadResponseAsync(NetworkStream stream)
    {
        var text = new StringBuilder();
        try
        {
            using var reader = new StreamReader(stream, Encoding.UTF8, leaveOpen: true);
            var buffer = new char[4096];
            for (int read; (read = await reader.ReadAsync(buffer)) > 0;)
            {
                text.Append(buffer, 0, read);
            }
        }
        catch (IOException)
        {
            // Reset after the answer: what arrived is the answer.
        }

        var response = text.ToString();
        var headEnd = response.IndexOf("\r\n\r\n", StringComparison.Ordinal);
        var statusLine = response.Length == 0 ? null : response[..response.IndexOf('\r', StringComparison.Ordinal)];
        return (statusLine, headEnd < 0 ? "" : response[(headEnd + 4)..]);
    }

    private static async Task WaitForAsync(Func<bool> condition)
    {
        for (var deadline = DateTime.UtcNow.AddSeconds(30); !condition(); await Task.Delay(20))
        {
            Assert.True(DateTime.UtcNow < deadline, "Waited 30 s for the server's log line.");
        }
    }
}
