using System.Net;
using System.Text.Json.Nodes;
using OpenQA.Selenium;
using ProtoHttp.BrowserTests.Infrastructure;
using ProtoHttp.FunctionalTests.Infrastructure;

namespace ProtoHttp.BrowserTests;

/// <summary>
/// The sample limited to HTTP/1.1 as a user limits it, with Kestrel's own variable
/// (<c>Kestrel__EndpointDefaults__Protocols=Http1</c>) and <c>--urls</c>, in its own process, called from real headless
/// Chromium: the explorer's bidirectional call and the browser module's server stream, both over a WebSocket
/// (docs/protocol.md section 13).
/// </summary>
[Collection(BrowserTestGroup.Name)]
public sealed class Http1OnlySampleTests(BrowserSession session) : BrowserTest(session, waitSeconds: 30)
{
    private const string Quote = "[id='NorthwindStreams.QuoteLines']";

    [BrowserFact]
    public async Task TheExplorersBidirectionalCallAndTheModulesServerStreamWorkOverHttp1Only()
    {
        var address = new Uri($"http://127.0.0.1:{LoopbackPort.Free()}");
        var grpc = new Uri($"http://127.0.0.1:{LoopbackPort.Free()}");
        await using var sample = await SampleProcess.StartAsync(
            ["--urls", address.ToString(), $"--Grpc:Url={grpc}"],
            new Dictionary<string, string> { ["Kestrel__EndpointDefaults__Protocols"] = "Http1" });

        // Kestrel's variable names every endpoint's protocols; the sample's gRPC port still gets its h2c, as the
        // sample's own endpoint settings apply after the configuration's defaults.
        using var http2 = new HttpClient { DefaultRequestVersion = HttpVersion.Version20, DefaultVersionPolicy = HttpVersionPolicy.RequestVersionExact };
        Assert.Equal(HttpVersion.Version20, (await http2.GetAsync(new Uri(grpc, "/healthz"))).Version);

        SetJavaScript(enabled: true);
        Driver.Navigate().GoToUrl(new Uri(address, "/NorthwindStreams.proto"));
        SendFromEditor(Quote, """{"productId": 1, "quantity": 2}""");
        Wait().Until(d => Text(Quote, ".px-answer").Split('\n', StringSplitOptions.RemoveEmptyEntries).Length == 1);
        Assert.Equal("Open", Text(Quote, ".px-status")); // Answered while the call is still open: both ways at once.
        SendFromEditor(Quote, """{"productId": 2, "quantity": 3}""");
        Wait().Until(d => Text(Quote, ".px-answer").Split('\n', StringSplitOptions.RemoveEmptyEntries).Length == 2);
        Driver.FindElement(By.CssSelector($"{Quote} .px-finish")).Click();
        Wait().Until(d => Text(Quote, ".px-status").StartsWith("Ended", StringComparison.Ordinal));
        Assert.Equal("Ended after 2 messages: OK", Text(Quote, ".px-status"));
        var quotes = Text(Quote, ".px-answer").Split('\n', StringSplitOptions.RemoveEmptyEntries).Select(line => JsonNode.Parse(line)!);
        Assert.Equal([(1, 2), (2, 3)], quotes.Select(q => ((int)q["productId"]!, (int)q["quantity"]!)));

        var replay = (string)((IJavaScriptExecutor)Driver).ExecuteAsyncScript("""
            const done = arguments[arguments.length - 1];
            (async () => {
              const { serverStream } = await import("/_protohttp/protohttp.mjs");
              const ids = [];
              for await (const order of serverStream("/NorthwindStreams.proto/ReplayOrders", { limit: 3 })) ids.push(order.orderId);
              return ids.join(",");
            })().then(done, e => done(`failed: ${e.code} ${e.message}`));
            """)!;
        Assert.Equal("10248,10249,10250", replay);
        Assert.DoesNotContain("fail:", sample.Output, StringComparison.Ordinal);
    }
}
