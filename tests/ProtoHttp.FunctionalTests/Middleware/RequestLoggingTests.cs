using System.Net;
using Microsoft.AspNetCore.Builder;
using Microsoft.AspNetCore.HttpLogging;
using Microsoft.Extensions.DependencyInjection;
using ProtoHttp.FunctionalTests.Infrastructure;
using ProtoHttp.FunctionalTests.Protos.Middleware;

namespace ProtoHttp.FunctionalTests.Middleware;

/// <summary>
/// HTTP logging with request and response bodies, and W3C logging to files: ProtoHttp's answers stay right (bodies
/// read once by the logger and again by ProtoHttp), streams stay prompt, and both logs record the calls.
/// </summary>
public sealed class RequestLoggingTests : IAsyncLifetime
{
    private readonly string _w3cDirectory = Path.Combine(Path.GetTempPath(), "protohttp-w3c-" + Guid.NewGuid().ToString("N"));
    private MiddlewareApp _app = null!;

    public async Task InitializeAsync() => _app = await MiddlewareApp.StartAsync(
        services: services =>
        {
            services.AddHttpLogging(o =>
            {
                o.LoggingFields = HttpLoggingFields.All;
                o.MediaTypeOptions.AddText("application/xml");
                o.RequestBodyLogLimit = 64 * 1024;
                o.ResponseBodyLogLimit = 64 * 1024;
            });
            services.AddW3CLogging(o =>
            {
                o.LoggingFields = W3CLoggingFields.All;
                o.LogDirectory = _w3cDirectory;
                o.FlushInterval = TimeSpan.FromMilliseconds(100);
            });
        },
        pipeline: app =>
        {
            app.UseHttpLogging();
            app.UseW3CLogging();
        });

    public async Task DisposeAsync()
    {
        await _app.DisposeAsync();
        if (Directory.Exists(_w3cDirectory))
        {
            Directory.Delete(_w3cDirectory, recursive: true); // made only once a line was written
        }
    }

    [Theory]
    [InlineData("application/json")]
    [InlineData("application/x-protobuf")]
    public async Task ACallIsAnsweredRightAndItsBodiesAreLogged(string format)
    {
        var key = Guid.NewGuid().ToString("N");
        using var request = Wire.Post($"{MiddlewareApp.Prefix}/Lookup", new LookupRequest { Key = key }, format, accept: "application/json");

        using var response = await _app.Client.SendAsync(request);

        Assert.Equal(HttpStatusCode.OK, response.StatusCode);
        Assert.Equal(key, (await Wire.ReadAsync<LookupReply>(response)).Key);
        Assert.True(await LoggedAsync("ResponseBody", key));
        if (format == "application/json")
        {
            Assert.True(await LoggedAsync("RequestBody", key));
        }
    }

    [Fact]
    public async Task AProtobufAnswerArrivesWholeThroughTheBodyLogger()
    {
        // On the server's own body a protobuf answer is left unflushed for the end of the request to send; the logger's
        // body is flushed (ResponseWriter), or the answer would still sit in the logger's writer when it is done.
        var key = Guid.NewGuid().ToString("N");
        using var request = Wire.Post($"{MiddlewareApp.Prefix}/Lookup", new LookupRequest { Key = key }, "application/x-protobuf", accept: "application/x-protobuf");

        using var response = await _app.Client.SendAsync(request);
        var body = await response.Content.ReadAsByteArrayAsync();

        Assert.Equal(HttpStatusCode.OK, response.StatusCode);
        Assert.Equal("application/x-protobuf", response.Content.Headers.ContentType?.MediaType);
        Assert.Equal(body.Length, response.Content.Headers.ContentLength);
        Assert.Equal(key, LookupReply.Parser.ParseFrom(body).Key);
    }

    [Fact]
    public async Task AStreamStaysPromptUnderBodyLogging()
    {
        using var timeout = new CancellationTokenSource(TimeSpan.FromSeconds(10));
        using var request = new HttpRequestMessage(HttpMethod.Get, $"{MiddlewareApp.Prefix}/Watch?count=1&wait=true");
        request.Headers.Accept.ParseAdd(StreamWire.Events);

        using var response = await _app.Client.SendAsync(request, HttpCompletionOption.ResponseHeadersRead, timeout.Token);
        await using var records = StreamWire.ReadAsync<FeedItem>(response, timeout.Token).GetAsyncEnumerator(timeout.Token);

        Assert.True(await records.MoveNextAsync());
        Assert.Equal(0, records.Current.Message!.Sequence);
    }

    [Fact]
    public async Task TheW3CLogHasALinePerCall()
    {
        var key = Guid.NewGuid().ToString("N");
        using var response = await _app.Client.GetAsync($"{MiddlewareApp.Prefix}/Lookup?key={key}");
        Assert.Equal(HttpStatusCode.OK, response.StatusCode);

        // The logger writes in the background every FlushInterval; the line is there within seconds.
        var deadline = DateTime.UtcNow.AddSeconds(10);
        string? line = null;
        while (line is null && DateTime.UtcNow < deadline)
        {
            await Task.Delay(100);
            line = Directory.Exists(_w3cDirectory)
                ? Directory.GetFiles(_w3cDirectory).SelectMany(ReadShared).FirstOrDefault(l => l.Contains(key, StringComparison.Ordinal))
                : null;
        }

        Assert.NotNull(line);
        Assert.Contains("/middleware_service.proto/Lookup", line, StringComparison.Ordinal);
        Assert.Contains(" 200 ", line, StringComparison.Ordinal);
    }

    /// <summary>Whether HTTP logging wrote the body holding <paramref name="key"/>: it does once the response has ended, which the client may see first.</summary>
    private async Task<bool> LoggedAsync(string body, string key)
    {
        for (var deadline = DateTime.UtcNow.AddSeconds(10); DateTime.UtcNow < deadline; await Task.Delay(50))
        {
            if (_app.Logs.Entries.Any(e => e.Category.Contains("HttpLogging", StringComparison.Ordinal)
                && e.Message.Contains(body, StringComparison.Ordinal) && e.Message.Contains(key, StringComparison.Ordinal)))
            {
                return true;
            }
        }

        return false;
    }

    private static IEnumerable<string> ReadShared(string path)
    {
        using var stream = new FileStream(path, FileMode.Open, FileAccess.Read, FileShare.ReadWrite | FileShare.Delete);
        using var reader = new StreamReader(stream);
        return reader.ReadToEnd().Split('\n');
    }
}
