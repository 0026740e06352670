using System.Text.Json.Nodes;
using OpenQA.Selenium;
using ProtoHttp.BrowserTests.Infrastructure;

namespace ProtoHttp.BrowserTests;

/// <summary>
/// The explorer's client-streaming and bidirectional calls, made from the JSON editor over a WebSocket
/// (docs/protocol.md section 13) in real headless Chromium against the sample, over HTTP/1.1.
/// </summary>
[Collection(BrowserTestGroup.Name)]
public sealed class ExplorerSocketCallTests : BrowserTest
{
    private const string Upload = "[id='NorthwindStreams.UploadOrders']";
    private const string Quote = "[id='NorthwindStreams.QuoteLines']";

    public ExplorerSocketCallTests(BrowserSession session)
        : base(session)
    {
        SetJavaScript(enabled: true);
    }

    [BufCurlFact]
    public async Task UploadOrdersSendsTwoOrdersThenFinishesAndShowsTheSummaryAndBufCurlSendsTheSame()
    {
        Driver.Navigate().GoToUrl(Session.Site.Url("/NorthwindStreams.proto"));
        SendFromEditor(Upload, """{"orderId": 1, "lines": [{"productId": 1, "unitPrice": 18, "quantity": 2}]}""");
        SendFromEditor(Upload, """{"orderId": 2, "lines": [{"productId": 2, "unitPrice": 19, "quantity": 1}, {"productId": 3, "unitPrice": 10, "quantity": 1}]}""");
        Driver.FindElement(By.CssSelector($"{Upload} .px-finish")).Click();

        Wait().Until(d => d.FindElement(By.CssSelector($"{Upload} .px-status")).Text == "Ended after 1 messages: OK");
        var summary = JsonNode.Parse(Text(Upload, ".px-answer"))!;
        Assert.Equal((2, 3, 65.0), ((int)summary["orders"]!, (int)summary["lines"]!, (double)summary["total"]!));
        Assert.Matches(@"^2 sent, 1 received in \d+ ms$", Text(Upload, ".px-time"));

        var bufCurl = Text(Upload, ".px-buf-curl");
        Assert.Contains("-d '{\"orderId\":1,", bufCurl, StringComparison.Ordinal);
        var fromBuf = JsonNode.Parse(await ShellLine.RunAsync(bufCurl))!;
        Assert.True(JsonNode.DeepEquals(summary, fromBuf), $"buf curl answered {fromBuf}");
        await AssertNoErrorLoggedAsync();
    }

    [BrowserFact]
    public void QuoteLinesAnswersEachLineWhileTheCallIsOpenAndEndsWithTheServicesError()
    {
        Driver.Navigate().GoToUrl(Session.Site.Url("/NorthwindStreams.proto"));
        SendFromEditor(Quote, """{"productId": 1, "quantity": 2}""");
        // The quote comes back before the client finishes sending: both ways at once, over one connection.
        Wait().Until(d => Text(Quote, ".px-answer").Split('\n', StringSplitOptions.RemoveEmptyEntries).Length == 1);
        Assert.Equal("Open", Text(Quote, ".px-status"));
        SendFromEditor(Quote, """{"productId": 2, "quantity": 1}""");
        Wait().Until(d => Text(Quote, ".px-answer").Split('\n', StringSplitOptions.RemoveEmptyEntries).Length == 2);
        SendFromEditor(Quote, """{"productId": 999, "quantity": 1}""");

        Wait().Until(d => Text(Quote, ".px-status").StartsWith("Ended", StringComparison.Ordinal));
        Assert.Equal("Ended after 2 messages: not_found · There is no product 999.", Text(Quote, ".px-status"));
        var quotes = Text(Quote, ".px-answer").Split('\n', StringSplitOptions.RemoveEmptyEntries).Select(line => JsonNode.Parse(line)!).ToList();
        Assert.Equal([(1, 2), (2, 1)], quotes.Select(q => ((int)q["productId"]!, (int)q["quantity"]!)));
        Assert.True(Driver.FindElement(By.CssSelector($"{Quote} .px-finish")).GetAttribute("disabled") is not null, "the ended call cannot be finished again");
    }

    [BrowserFact]
    public void ADeadlineEndsAnOpenUploadWithDeadlineExceeded()
    {
        Driver.Navigate().GoToUrl(Session.Site.Url("/NorthwindStreams.proto"));
        Driver.FindElement(By.CssSelector($"{Upload} .px-deadline input")).SendKeys("300");
        SendFromEditor(Upload, """{"orderId": 1}""");

        Wait().Until(d => Text(Upload, ".px-status").StartsWith("Ended", StringComparison.Ordinal));
        Assert.StartsWith("Ended after 0 messages: deadline_exceeded", Text(Upload, ".px-status"), StringComparison.Ordinal);
    }
}
