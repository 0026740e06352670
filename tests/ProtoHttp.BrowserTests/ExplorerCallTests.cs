using System.Text.Json;
using System.Text.Json.Nodes;
using OpenQA.Selenium;
using ProtoHttp.BrowserTests.Infrastructure;

namespace ProtoHttp.BrowserTests;

/// <summary>
/// The explorer's calls with the script on, in real headless Chromium against the sample: the JSON editor prefilled
/// from the descriptors, request headers and a deadline, the answer's status, ErrorResult, headers and time, and the
/// curl and buf curl lines run in a shell against the same server.
/// </summary>
[Collection(BrowserTestGroup.Name)]
public sealed class ExplorerCallTests : BrowserTest
{
    private const string Search = "[id='SearchService.Search']";
    private const string Replay = "[id='NorthwindStreams.ReplayOrders']";
    private const string Upload = "[id='NorthwindStreams.UploadOrders']";

    public ExplorerCallTests(BrowserSession session)
        : base(session)
    {
        SetJavaScript(enabled: true);
    }

    [BrowserFact]
    public void TheJsonEditorStartsFromEveryFieldOfTheRequestNestedAndRepeatedOnesIncluded()
    {
        Driver.Navigate().GoToUrl(Session.Site.Url("/NorthwindStreams.proto"));
        Assert.Empty(Driver.FindElements(By.CssSelector($"{Upload} form")));
        Assert.True(Driver.FindElement(By.CssSelector($"{Upload} .px-editor")).Displayed, "a client stream has no form: its editor shows at once");

        var order = JsonNode.Parse(Driver.FindElement(By.CssSelector($"{Upload} textarea.px-json")).GetAttribute("value")!)!;
        Assert.Equal(0, (int)order["orderId"]!);
        Assert.Equal("1970-01-01T00:00:00Z", (string?)order["orderDate"]);
        Assert.Equal(["productId", "unitPrice", "quantity", "discount"], order["lines"]!.AsArray().Single()!.AsObject().Select(p => p.Key));
        Assert.Contains("Send message", Driver.FindElement(By.CssSelector($"{Upload} .px-editor")).Text, StringComparison.Ordinal);
        Assert.Contains("Connect POST /Northwind.NorthwindStreams/UploadOrders", Driver.FindElement(By.CssSelector($"{Upload} .px-other-routes")).GetAttribute("textContent"), StringComparison.Ordinal);
    }

    [BrowserFact]
    public async Task FromTheJsonEditorSearchSendsTheHeaderAndDeadlineAndShowsStatusHeadersAndTimeAndTheCurlLineAnswersTheSame()
    {
        Driver.Navigate().GoToUrl(Session.Site.Url("/ProtoService.proto"));
        Driver.FindElement(By.CssSelector($"{Search} .px-tab[data-mode=json]")).Click();
        Assert.False(Driver.FindElement(By.CssSelector($"{Search} form")).Displayed);
        SetEditor(Search, """{"query": "chai"}""");
        Driver.FindElement(By.CssSelector($"{Search} .px-header-name")).SendKeys(EchoHeaderFilter.Header);
        Driver.FindElement(By.CssSelector($"{Search} .px-header-value")).SendKeys("from-the-explorer");
        Driver.FindElement(By.CssSelector($"{Search} .px-deadline input")).SendKeys("5000");
        Driver.FindElement(By.CssSelector($"{Search} .px-editor .px-send")).Click();

        Wait().Until(d => d.FindElement(By.CssSelector($"{Search} .px-status")).Text.StartsWith("200", StringComparison.Ordinal));
        Assert.Equal("200 OK · application/json; charset=utf-8", Text(Search, ".px-status"));
        Assert.Matches(@"^Answered in \d+ ms$", Text(Search, ".px-time"));
        var headers = Driver.FindElement(By.CssSelector($"{Search} .px-response-headers pre")).GetAttribute("textContent")!;
        Assert.Contains("x-echo: from-the-explorer", headers, StringComparison.Ordinal);
        Assert.Contains("content-type: application/json; charset=utf-8", headers, StringComparison.Ordinal);
        var answer = JsonNode.Parse(Text(Search, ".px-answer"))!;
        Assert.Equal("Chai", (string?)answer["result"]![0]!["title"]);

        var curl = Text(Search, ".px-curl");
        Assert.Equal(
            $"curl -sS -H 'Accept: application/json' -H 'Content-Type: application/json' -H 'X-Echo: from-the-explorer' -H 'Connect-Timeout-Ms: 5000' --data-raw '{{\"query\":\"chai\"}}' '{Session.Site.Url("/ProtoService.proto/Search")}'",
            curl);
        var (fromCurl, curlHeaders) = await RunWithHeadersAsync(curl);
        Assert.True(JsonNode.DeepEquals(answer, JsonNode.Parse(fromCurl)), $"curl answered {fromCurl}");
        Assert.Contains("x-echo: from-the-explorer", curlHeaders, StringComparison.OrdinalIgnoreCase);
        await AssertNoErrorLoggedAsync();
    }

    [BufCurlFact]
    public async Task TheBufCurlLineCallsTheConnectRouteWithTheServersOwnSchema()
    {
        Driver.Navigate().GoToUrl(Session.Site.Url("/ProtoService.proto"));
        Assert.Equal("buf curl sends the request as JSON: use the JSON tab for its command line.", BufCurlAfterFormCall());

        Driver.FindElement(By.CssSelector($"{Search} .px-tab[data-mode=json]")).Click();
        SetEditor(Search, """{"query": "chai"}""");
        Driver.FindElement(By.CssSelector($"{Search} .px-editor .px-send")).Click();
        Wait().Until(d => d.FindElement(By.CssSelector($"{Search} .px-status")).Text.StartsWith("200", StringComparison.Ordinal));

        var bufCurl = Text(Search, ".px-buf-curl");
        Assert.Equal(
            $"curl -sS -H 'Accept: application/x-protobuf' '{Session.Site.Url("/ProtoService.proto")}' | buf curl --schema - --protocol connect -d '{{\"query\":\"chai\"}}' '{Session.Site.Url("/ProtoService.SearchService/Search")}'",
            bufCurl);
        var answer = JsonNode.Parse(Text(Search, ".px-answer"))!;
        var fromBuf = JsonNode.Parse(await ShellLine.RunAsync(bufCurl))!;
        Assert.Equal((string?)answer["result"]![0]!["title"], (string?)fromBuf["result"]![0]!["title"]);
        Assert.Equal(answer["result"]!.AsArray().Count, fromBuf["result"]!.AsArray().Count);
    }

    [BrowserFact]
    public async Task RoundtripWhoseFormLeavesOutItsRepeatedOrdersOpensInJsonAndSendsThem()
    {
        const string Roundtrip = "[id='NorthwindService.Roundtrip']";
        Driver.Navigate().GoToUrl(Session.Site.Url("/Northwind.proto"));
        Assert.False(Driver.FindElement(By.CssSelector($"{Roundtrip} form")).Displayed, "a form that leaves the orders out is not the first choice");
        Assert.True(Driver.FindElement(By.CssSelector($"{Roundtrip} .px-editor")).Displayed);

        SetEditor(Roundtrip, """{"orders": [{"orderId": 7, "lines": [{"productId": 1, "quantity": 2}]}, {"orderId": 8}]}""");
        Driver.FindElement(By.CssSelector($"{Roundtrip} .px-editor .px-send")).Click();

        Wait().Until(d => d.FindElement(By.CssSelector($"{Roundtrip} .px-status")).Text.StartsWith("200", StringComparison.Ordinal));
        var orders = JsonNode.Parse(Text(Roundtrip, ".px-answer"))!["orders"]!.AsArray();
        Assert.Equal([7, 8], orders.Select(o => (int)o!["orderId"]!));
        Assert.Equal(2, (int)orders[0]!["lines"]![0]!["quantity"]!);
        await AssertNoErrorLoggedAsync();
    }

    [BrowserFact]
    public void JsonThatDoesNotParseIsNotSentAndTheEditorSaysWhy()
    {
        Driver.Navigate().GoToUrl(Session.Site.Url("/ProtoService.proto"));
        Driver.FindElement(By.CssSelector($"{Search} .px-tab[data-mode=json]")).Click();
        SetEditor(Search, """{"query": }""");
        Driver.FindElement(By.CssSelector($"{Search} .px-editor .px-send")).Click();

        var error = Driver.FindElement(By.CssSelector($"{Search} .px-editor .px-json-error"));
        Assert.True(error.Displayed);
        Assert.StartsWith("Not sent, the JSON is not valid: ", error.Text, StringComparison.Ordinal);
        Assert.Equal("", Text(Search, ".px-status"));

        SetEditor(Search, "[1, 2]");
        Driver.FindElement(By.CssSelector($"{Search} .px-editor .px-send")).Click();
        Assert.Equal("Not sent, the JSON is not valid: a request message is a JSON object, { … }", error.Text);
    }

    [BrowserFact]
    public void AHeaderTheServerRefusesShowsTheStatusAndTheErrorResultCode()
    {
        Driver.Navigate().GoToUrl(Session.Site.Url("/ProtoService.proto"));
        Driver.FindElement(By.CssSelector($"{Search} input[name=query]")).SendKeys("chai");
        Driver.FindElement(By.CssSelector($"{Search} .px-header-name")).SendKeys("Connect-Timeout-Ms");
        Driver.FindElement(By.CssSelector($"{Search} .px-header-value")).SendKeys("soon");
        Driver.FindElement(By.CssSelector($"{Search} form button[type=submit]")).Click();

        Wait().Until(d => d.FindElement(By.CssSelector($"{Search} .px-status")).Text.StartsWith("400", StringComparison.Ordinal));
        Assert.StartsWith("INVALID_ARGUMENT: ", Text(Search, ".px-code"), StringComparison.Ordinal);
        Assert.Contains("Connect-Timeout-Ms", Text(Search, ".px-code"), StringComparison.Ordinal);
    }

    [BrowserFact]
    public async Task AServerStreamFromTheJsonEditorShowsEachMessageAndItsCurlLineStreamsTheSame()
    {
        Driver.Navigate().GoToUrl(Session.Site.Url("/NorthwindStreams.proto"));
        Driver.FindElement(By.CssSelector($"{Replay} .px-tab[data-mode=json]")).Click();
        SetEditor(Replay, """{"limit": 3}""");
        Driver.FindElement(By.CssSelector($"{Replay} .px-editor .px-send")).Click();

        Wait().Until(d => d.FindElement(By.CssSelector($"{Replay} .px-status")).Text == "Ended after 3 messages: OK");
        var lines = Text(Replay, ".px-answer").Split('\n', StringSplitOptions.RemoveEmptyEntries);
        Assert.Equal([10248, 10249, 10250], lines.Select(line => JsonDocument.Parse(line).RootElement.GetProperty("orderId").GetInt32()));
        Assert.Matches(@"^First message after \d+ ms; 3 messages in \d+ ms$", Text(Replay, ".px-time"));

        var curl = Text(Replay, ".px-curl");
        Assert.StartsWith("curl -sSN -H 'Accept: application/x-ndjson' -H 'Content-Type: application/json' --data-raw '{\"limit\":3}' ", curl, StringComparison.Ordinal);
        var fromCurl = (await ShellLine.RunAsync(curl)).Split('\n', StringSplitOptions.RemoveEmptyEntries);
        Assert.Equal([10248, 10249, 10250], fromCurl.Select(line => JsonDocument.Parse(line).RootElement.GetProperty("result").GetProperty("orderId").GetInt32()));
        await AssertNoErrorLoggedAsync();
    }

    [BrowserFact]
    public void TheDeadlineEndsAnEndlessPriceFeedWithDeadlineExceeded()
    {
        const string Watch = "[id='NorthwindStreams.WatchPrices']";
        Driver.Navigate().GoToUrl(Session.Site.Url("/NorthwindStreams.proto"));
        Driver.FindElement(By.CssSelector($"{Watch} .px-deadline input")).SendKeys("700");
        Driver.FindElement(By.CssSelector($"{Watch} form button[type=submit]")).Click();

        // Ticks written before the deadline end the stream in its last record; none, and the call answers 504 itself.
        Wait().Until(d => Text(Watch, ".px-status") is var status && (status.StartsWith("Ended", StringComparison.Ordinal) || status.StartsWith("504", StringComparison.Ordinal)));
        Assert.Contains("DEADLINE_EXCEEDED", Text(Watch, ".px-status") + Text(Watch, ".px-code"), StringComparison.Ordinal);
        Assert.Contains("-H 'Connect-Timeout-Ms: 700'", Text(Watch, ".px-curl"), StringComparison.Ordinal);
    }

    private string BufCurlAfterFormCall()
    {
        Driver.FindElement(By.CssSelector($"{Search} input[name=query]")).SendKeys("chai");
        Driver.FindElement(By.CssSelector($"{Search} form button[type=submit]")).Click();
        Wait().Until(d => d.FindElement(By.CssSelector($"{Search} .px-status")).Text.StartsWith("200", StringComparison.Ordinal));
        return Text(Search, ".px-buf-curl");
    }

    /// <summary>Runs a curl line with its response headers dumped to a file: the body and the headers.</summary>
    private static async Task<(string Body, string Headers)> RunWithHeadersAsync(string curlLine)
    {
        var headers = Path.GetTempFileName();
        try
        {
            var body = await ShellLine.RunAsync($"{curlLine} -D '{headers}'");
            return (body, await File.ReadAllTextAsync(headers));
        }
        finally
        {
            File.Delete(headers);
        }
    }
}
