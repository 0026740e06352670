using OpenQA.Selenium;
using ProtoHttp.BrowserTests.Infrastructure;

namespace ProtoHttp.BrowserTests;

/// <summary>
/// ProtoHttp's browser module (/_protohttp/protohttp.mjs, docs/protocol.md section 13) in real headless Chromium: the
/// sample page's live bidirectional quotes, and every method kind of the sample called from a page over WebSocket.
/// </summary>
[Collection(BrowserTestGroup.Name)]
public sealed class WebSocketModuleTests(BrowserSession session) : BrowserTest(session, waitSeconds: 15)
{
    [BrowserFact]
    public async Task TheLiveQuotesSectionQuotesEachLineOnOneOpenCall()
    {
        OpenPage();

        Driver.FindElement(By.Id("quotes-open")).Click();
        Wait().Until(d => d.FindElement(By.Id("quote-send")).Enabled);
        foreach (var (product, quantity) in new[] { ("1", "2"), ("2", "3") })
        {
            var count = Driver.FindElements(By.CssSelector("#quotes li")).Count;
            Fill("quote-product", product);
            Fill("quote-quantity", quantity);
            Driver.FindElement(By.Id("quote-send")).Click();
            // Each quote arrives while the call is still open, before the next line is sent.
            Wait().Until(d => d.FindElements(By.CssSelector("#quotes li")).Count == count + 1);
        }

        Driver.FindElement(By.Id("quotes-end")).Click();

        Wait().Until(d => d.FindElement(By.Id("quotes-status")).Text.StartsWith("The call ended", StringComparison.Ordinal));
        Assert.Equal("The call ended: OK, 2 quotes.", Driver.FindElement(By.Id("quotes-status")).Text);
        var shown = Driver.FindElements(By.CssSelector("#quotes li")).Select(li => li.Text).ToList();
        Assert.Matches(@"^2 × product 1 at \d+\.\d{2} = \d+\.\d{2}$", shown[0]);
        Assert.Matches(@"^3 × product 2 at \d+\.\d{2} = \d+\.\d{2}$", shown[1]);
        await AssertNoErrorLoggedAsync();
    }

    [BrowserFact]
    public void AnUnknownProductEndsTheCallWithItsCodeAndMessage()
    {
        OpenPage();

        Driver.FindElement(By.Id("quotes-open")).Click();
        Wait().Until(d => d.FindElement(By.Id("quote-send")).Enabled);
        Fill("quote-product", "999999");
        Driver.FindElement(By.Id("quote-send")).Click();

        var error = Driver.FindElement(By.Id("quotes-error"));
        Wait().Until(_ => error.Displayed);
        Assert.Equal("not_found: There is no product 999999.", error.Text);
        Assert.Equal("The call failed.", Driver.FindElement(By.Id("quotes-status")).Text);
    }

    [BrowserFact]
    public async Task EveryMethodKindIsCalledFromAPage()
    {
        OpenPage();

        var results = (IDictionary<string, object>)((IJavaScriptExecutor)Driver).ExecuteAsyncScript("""
            const done = arguments[arguments.length - 1];
            (async () => {
              const { unary, serverStream, clientStream, open, ProtoHttpError } = await import("/_protohttp/protohttp.mjs");
              const out = {};
              out.search = (await unary("/ProtoService.proto/Search", { query: "chai" })).result[0].title;
              const replay = [];
              for await (const order of serverStream("/NorthwindStreams.proto/ReplayOrders", { limit: 3 })) replay.push(order.orderId);
              out.replay = replay.join(",");
              out.upload = (await clientStream("/NorthwindStreams.proto/UploadOrders",
                [{ orderId: 1, lines: [{ productId: 1, quantity: 2, unitPrice: 10 }] }, { orderId: 2 }])).orders;
              const quotes = open("/NorthwindStreams.proto/QuoteLines");
              quotes.send({ productId: 3, quantity: 4 });
              out.quote = (await quotes.read()).value.quantity;
              quotes.end();
              out.quoteEnd = (await quotes.read()).done;
              try {
                for await (const tick of serverStream("/NorthwindStreams.proto/WatchPrices", {}, { timeoutMs: 300 })) { }
              } catch (e) {
                out.deadline = `${e instanceof ProtoHttpError} ${e.code}`;
              }
              try {
                await unary("/ProtoService.proto/Search", {});
              } catch (e) {
                out.invalid = `${e instanceof Error} ${e.code}`;
              }
              return out;
            })().then(done, e => done({ failed: String(e) }));
            """)!;

        Assert.False(results.ContainsKey("failed"), results.TryGetValue("failed", out var failed) ? failed?.ToString() : null);
        Assert.Equal("Chai", results["search"]);
        Assert.Equal("10248,10249,10250", results["replay"]);
        Assert.Equal(2L, results["upload"]);
        Assert.Equal(4L, results["quote"]);
        Assert.Equal(true, results["quoteEnd"]);
        Assert.Equal("true deadline_exceeded", results["deadline"]);
        Assert.Equal("true invalid_argument", results["invalid"]);
        await AssertNoErrorLoggedAsync();
    }

    private void OpenPage()
    {
        // The tab is shared, and another test may have turned page scripts off in it.
        SetJavaScript(enabled: true);
        Driver.Navigate().GoToUrl(Session.Site.Url("/"));
        Wait().Until(d => d.FindElement(By.Id("quotes-open")).Enabled);
    }

    private void Fill(string id, string value)
    {
        var input = Driver.FindElement(By.Id(id));
        input.Clear();
        input.SendKeys(value);
    }
}
