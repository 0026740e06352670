using Microsoft.Extensions.DependencyInjection;
using ProtoHttp.AspNetCore;
using ProtoHttp.FunctionalTests.Infrastructure;
using ProtoHttp.FunctionalTests.Services;

namespace ProtoHttp.FunctionalTests;

/// <summary>An idle event stream carries comment lines at the keep-alive interval, so proxies keep it open (PROTOCOL.md section 9).</summary>
public sealed class StreamKeepAliveTests : IAsyncLifetime
{
    private SampleServer _server = null!;

    public async Task InitializeAsync() => _server = await SampleServer.StartAsync(configure: builder =>
        builder.Services.AddProtoHttp().AddServiceOptions<StreamingTestService>(o => o.StreamKeepAliveInterval = TimeSpan.FromMilliseconds(50)));

    public async Task DisposeAsync() => await _server.DisposeAsync();

    [Fact]
    public async Task AnIdleEventStreamCarriesCommentsUntilItsFirstEvent()
    {
        _server.StreamProbe.Reset();
        var request = new HttpRequestMessage(HttpMethod.Get, "/streaming_service.proto/Count.sse?count=1&wait_for_gate=true");

        // The service waits for the gate, so only a keep-alive comment can start the response.
        using var response = await _server.Client.SendAsync(request, HttpCompletionOption.ResponseHeadersRead);
        using var reader = new StreamReader(await response.Content.ReadAsStreamAsync());
        Assert.Equal(":", await reader.ReadLineAsync());
        _server.StreamProbe.OpenGate();

        var lines = new List<string>();
        while (await reader.ReadLineAsync() is { } line)
        {
            lines.Add(line);
        }

        var events = lines.Where(l => l.Length > 0 && l != ":").ToList();
        Assert.Equal(["data: { }", "event: end", "data: {\"code\":\"OK\"}"], events);
    }

    [Fact]
    public async Task NoCommentsWhenTheIntervalIsOff()
    {
        await using var server = await SampleServer.StartAsync(configure: builder =>
            builder.Services.AddProtoHttp().AddServiceOptions<StreamingTestService>(o => o.StreamKeepAliveInterval = Timeout.InfiniteTimeSpan));

        var body = await server.Client.GetStringAsync("/streaming_service.proto/Count.sse?count=2");

        Assert.Equal("data: { }\n\ndata: { \"sequence\": 1 }\n\nevent: end\ndata: {\"code\":\"OK\"}\n\n", body);
    }
}
