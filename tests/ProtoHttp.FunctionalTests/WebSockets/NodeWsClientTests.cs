using System.Diagnostics;
using System.Text.Json;
using Microsoft.Extensions.DependencyInjection;
using ProtoHttp.FunctionalTests.Infrastructure;
using SearchService.Streams;

namespace ProtoHttp.FunctionalTests.WebSockets;

/// <summary>
/// Node's <c>ws</c>, a WebSocket client nobody on this project wrote, calling the sample over HTTP/1.1
/// (docs/protocol.md section 13): node/ws-calls.mjs makes every call and prints what it saw; each test checks a part.
/// npm installs <c>ws</c> from node/package-lock.json into a folder of the test run's own.
/// </summary>
public sealed class NodeWsClientTests(NodeWsClientTests.Run run) : IClassFixture<NodeWsClientTests.Run>
{
    private JsonElement Results => run.Results;

    [Fact]
    public void SearchAnswersInJson()
    {
        var search = Results.GetProperty("search");
        Assert.Equal("protohttp+json", search.GetProperty("subprotocol").GetString());
        Assert.Equal("Chai", search.GetProperty("messages")[0].GetProperty("result")[0].GetProperty("title").GetString());
        Assert.False(search.GetProperty("end").TryGetProperty("error", out _));
        Assert.Equal(1000, search.GetProperty("close").GetInt32());
    }

    [Fact]
    public void AUnaryCallHalfClosedWithoutItsRequestEndsInvalidArgument()
    {
        var search = Results.GetProperty("searchProto");
        Assert.Equal("protohttp+proto", search.GetProperty("subprotocol").GetString());
        Assert.Equal("invalid_argument", search.GetProperty("end").GetProperty("error").GetProperty("code").GetString());
    }

    [Fact]
    public void UploadOrdersSumsTheStream()
    {
        var summary = Results.GetProperty("upload").GetProperty("messages")[0];
        Assert.Equal(2, summary.GetProperty("orders").GetInt32());
        Assert.Equal(25, summary.GetProperty("total").GetDouble(), 3);
    }

    [Fact]
    public void QuoteLinesAnswersEachLineAsItComes()
    {
        var quotes = Results.GetProperty("quotes");
        Assert.Equal([1, 2, 3], quotes.GetProperty("messages").EnumerateArray().Select(q => q.GetProperty("quantity").GetInt32()));
        Assert.False(quotes.GetProperty("end").TryGetProperty("error", out _));
        Assert.Equal(1000, quotes.GetProperty("close").GetInt32());
    }

    [Fact]
    public void AnUnknownProductEndsNotFound()
    {
        var error = Results.GetProperty("unknownProduct").GetProperty("end").GetProperty("error");
        Assert.Equal("not_found", error.GetProperty("code").GetString());
        Assert.Equal("There is no product 999999.", error.GetProperty("message").GetString());
    }

    [Fact]
    public void WatchPricesEndsAtItsDeadline()
    {
        var watch = Results.GetProperty("watch");
        Assert.True(watch.GetProperty("messages").GetArrayLength() > 3);
        Assert.Equal("deadline_exceeded", watch.GetProperty("end").GetProperty("error").GetProperty("code").GetString());
        Assert.Equal(1000, watch.GetProperty("close").GetInt32());
    }

    [Theory]
    [InlineData("badSubprotocol", 400, "Sec-WebSocket-Protocol")]
    [InlineData("crossSite", 403, "http://evil.example")]
    [InlineData("unauthorized", 401, "")]
    public void RefusalsAnswerTheUpgradeWithTheirStatus(string call, int status, string text)
    {
        var refused = Results.GetProperty(call).GetProperty("refused");
        Assert.Equal(status, refused.GetProperty("status").GetInt32());
        Assert.Contains(text, refused.GetProperty("body").GetString(), StringComparison.Ordinal);
    }

    [Fact]
    public void AnAuthorizedCallerIsServed() =>
        Assert.Equal("ada", Results.GetProperty("authorized").GetProperty("messages")[0].GetProperty("user").GetString());

    [Fact]
    public void AMessageOverTheLimitCloses1009()
    {
        var tooBig = Results.GetProperty("tooBig");
        Assert.Equal("resource_exhausted", tooBig.GetProperty("end").GetProperty("error").GetProperty("code").GetString());
        Assert.Equal(1009, tooBig.GetProperty("close").GetInt32());
    }

    [Fact]
    public void AnIdleCallGetsKeepAliveFrames()
    {
        // The server's keep-alive interval is 200 ms here; the call waits 1.2 s before it answers.
        var idle = Results.GetProperty("idle");
        Assert.True(idle.GetProperty("keepAlives").GetInt32() >= 2, idle.ToString());
        Assert.True(idle.GetProperty("messages")[0].GetProperty("completed").GetBoolean());
    }

    [Fact]
    public void FiftySocketsAtOnceEachGetTheirOwnQuotes()
    {
        var fifty = Results.GetProperty("fifty").EnumerateArray().ToList();
        Assert.Equal(50, fifty.Count);
        for (var i = 0; i < fifty.Count; i++)
        {
            Assert.Equal([i + 1, 1000 + i], fifty[i].GetProperty("quantities").EnumerateArray().Select(q => q.GetInt32()));
            Assert.Equal(1000, fifty[i].GetProperty("close").GetInt32());
        }
    }

    /// <summary>The sample server and one run of node/ws-calls.mjs against it, shared by the class's tests.</summary>
    public sealed class Run : IAsyncLifetime
    {
        public JsonElement Results { get; private set; }

        public async Task InitializeAsync()
        {
            var folder = Directory.CreateTempSubdirectory("protohttp-ws-").FullName;
            try
            {
                var source = Path.Combine(RepositoryRoot.Path, "tests", "ProtoHttp.FunctionalTests", "WebSockets", "node");
                foreach (var file in new[] { "package.json", "package-lock.json", "ws-calls.mjs" })
                {
                    File.Copy(Path.Combine(source, file), Path.Combine(folder, file));
                }

                await RunAsync("npm", ["ci", "--no-audit", "--no-fund", "--silent"], folder, TimeSpan.FromMinutes(3));
                await using var server = await SampleServer.StartAsync(configure: builder =>
                {
                    builder.Services.Configure<PriceTickerOptions>(o => o.Interval = TimeSpan.FromMilliseconds(20));
                    builder.Services.AddProtoHttp(o => o.StreamKeepAliveInterval = TimeSpan.FromMilliseconds(200));
                });
                var address = new UriBuilder(server.Http1Address) { Scheme = "ws" }.Uri.ToString().TrimEnd('/');
                var output = await RunAsync("node", ["ws-calls.mjs", address], folder, TimeSpan.FromMinutes(2));
                Results = JsonDocument.Parse(output).RootElement.Clone();
            }
            finally
            {
                Directory.Delete(folder, recursive: true);
            }
        }

        public Task DisposeAsync() => Task.CompletedTask;

        private static async Task<string> RunAsync(string program, string[] arguments, string folder, TimeSpan limit)
        {
            var start = new ProcessStartInfo(program) { WorkingDirectory = folder, RedirectStandardOutput = true, RedirectStandardError = true };
            foreach (var argument in arguments)
            {
                start.ArgumentList.Add(argument);
            }

            using var process = Process.Start(start)!;
            var output = process.StandardOutput.ReadToEndAsync();
            var errors = process.StandardError.ReadToEndAsync();
            using var timeout = new CancellationTokenSource(limit);
            try
            {
                await process.WaitForExitAsync(timeout.Token);
            }
            catch (OperationCanceledException)
            {
                process.Kill(entireProcessTree: true);
                throw new TimeoutException($"{program} {string.Join(' ', arguments)} did not finish within {limit}: {await errors}");
            }

            Assert.True(process.ExitCode == 0, $"{program} {string.Join(' ', arguments)} exited with {process.ExitCode}: {await errors}");
            return await output;
        }
    }
}
