using Microsoft.Extensions.DependencyInjection;
using ProtoHttp.AspNetCore;
using ProtoHttp.FunctionalTests.Infrastructure;
using ProtoHttp.FunctionalTests.Services;

namespace ProtoHttp.FunctionalTests;

/// <summary>An idle event stream carries comment lines at the keep-alive interval, so proxies keep it open (docs/protocol.md section 10).</summary>
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
    public async Task CommentsNeverLandInsideAnEvent()
    {
        // A comment every millisecond against a reader that keeps the writes waiting on the network: each tick that finds
        // the stream idle writes one, and each must fall between two events.
        await using var server = await SampleServer.StartAsync(configure: builder =>
            builder.Services.AddProtoHttp().AddServiceOptions<StreamingTestService>(o => o.StreamKeepAliveInterval = TimeSpan.FromMilliseconds(1)));
        const int count = 300;

        using var response = await server.Client.GetAsync($"/streaming_service.proto/Count.sse?count={count}&padding_bytes=3000", HttpCompletionOption.ResponseHeadersRead);
        using var reader = new StreamReader(await response.Content.ReadAsStreamAsync());
        var body = new System.Text.StringBuilder();
        var buffer = new char[4096];
        int read;
        while ((read = await reader.ReadAsync(buffer)) > 0)
        {
            body.Append(buffer, 0, read);
            await Task.Delay(1);
        }

        var blocks = body.ToString().Split("\n\n");
        Assert.Equal("", blocks[^1]);
        Assert.All(blocks[..^1], block => Assert.Matches("^(:|data: \\{[^\\n]*\\}|event: end\\ndata: \\{\"code\":\"OK\"\\})$", block));
        Assert.Equal(count, blocks.Count(b => b.StartsWith("data: ", StringComparison.Ordinal)));
        Assert.Equal("event: end\ndata: {\"code\":\"OK\"}", blocks[^2]);
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
