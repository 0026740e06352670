using System.Text.Json;
using System.Text.Json.Nodes;
using OpenQA.Selenium;
using ProtoHttp.BrowserTests.Infrastructure;

namespace ProtoHttp.BrowserTests;

/// <summary>The explorer the sample maps at /protohttp, and the pages GET /{file}.proto gives a browser, in real headless Chromium.</summary>
[Collection(BrowserTestGroup.Name)]
public sealed class ExplorerPageTests(BrowserSession session) : BrowserTest(session)
{
    private const string Search = "[id='SearchService.Search']";
    private const string FindOrders = "[id='NorthwindService.FindOrders']";

    [BrowserFact]
    public async Task TheIndexListsTheServicesOfBothSampleFiles()
    {
        SetJavaScript(enabled: true);
        Driver.Navigate().GoToUrl(Session.Site.Url("/protohttp"));

        Assert.Equal("ProtoHttp services", Driver.Title);
        var files = Driver.FindElements(By.CssSelector(".px-file h2 a")).Select(a => a.Text).ToList();
        Assert.Contains("ProtoService.proto", files);
        Assert.Contains("Northwind.proto", files);
        var services = Driver.FindElements(By.CssSelector(".px-file h3")).Select(h => h.Text).ToList();
        Assert.Contains("service ProtoService.SearchService", services);
        Assert.Contains("service Northwind.NorthwindService", services);

        Driver.FindElement(By.LinkText("Northwind.proto")).Click();
        Wait().Until(d => d.Title == "Northwind.proto");
        Assert.Contains("Every order with its lines.", Driver.FindElement(By.Id("NorthwindService.GetOrders")).Text, StringComparison.Ordinal);
        await AssertNoErrorLoggedAsync();
    }

    [BrowserFact]
    public async Task TheSearchFormWithoutJavaScriptShowsChaiInTheXmlAnswer()
    {
        Session.WithoutJavaScript(() =>
        {
            Driver.Navigate().GoToUrl(Session.Site.Url("/ProtoService.proto"));
            Assert.True(Driver.FindElement(By.CssSelector($"{Search} button[formaction$='Search.json']")).Displayed, "without the script, each format has its button");

            Driver.FindElement(By.CssSelector($"{Search} input[name=query]")).SendKeys("chai");
            Driver.FindElement(By.CssSelector($"{Search} button[type=submit]")).Click();

            Wait().Until(d => d.Url.EndsWith("/ProtoService.proto/Search", StringComparison.Ordinal));
            Assert.Equal("application/xml", Script("return document.contentType"));
            Assert.Equal("Chai", Script("return document.querySelector('root > result > title').textContent"));
        });

        await AssertNoErrorLoggedAsync();
    }

    [BrowserFact]
    public async Task WithJavaScriptTheJsonViewShowsChaiAndTheCurlLineGivesTheSameAnswer()
    {
        SetJavaScript(enabled: true);
        Driver.Navigate().GoToUrl(Session.Site.Url("/ProtoService.proto"));
        Assert.Empty(Driver.FindElements(By.CssSelector($"{Search} button[formaction]")));

        Driver.FindElement(By.CssSelector($"{Search} input[name=query]")).SendKeys("chai");
        Driver.FindElement(By.CssSelector($"{Search} button[type=submit]")).Click();

        var status = Wait().Until(d => d.FindElement(By.CssSelector($"{Search} .px-status")).Text is var text && text.StartsWith("200", StringComparison.Ordinal) ? text : null);
        Assert.Equal("200 OK · application/json; charset=utf-8", status);
        var answer = JsonNode.Parse(Driver.FindElement(By.CssSelector($"{Search} .px-answer")).Text)!;
        Assert.Equal("Chai", (string?)answer["result"]![0]!["title"]);

        var curl = Driver.FindElement(By.CssSelector($"{Search} .px-curl")).Text;
        Assert.StartsWith("curl -sS -H 'Accept: application/json' -H 'Content-Type: application/x-www-form-urlencoded' --data-raw 'query=chai' ", curl, StringComparison.Ordinal);
        var fromCurl = JsonNode.Parse(await ShellLine.RunAsync(curl))!;
        Assert.True(JsonNode.DeepEquals(answer, fromCurl), $"curl answered {fromCurl}");
        await AssertNoErrorLoggedAsync();
    }

    [BrowserFact]
    public async Task TheFormatSwitchShowsXmlAndProtobufAsHexWithItsDecoding()
    {
        SetJavaScript(enabled: true);
        Driver.Navigate().GoToUrl(Session.Site.Url("/ProtoService.proto"));
        Driver.FindElement(By.CssSelector($"{Search} input[name=query]")).SendKeys("chai");
        ChooseFormat("XML");
        Driver.FindElement(By.CssSelector($"{Search} button[type=submit]")).Click();
        Wait().Until(d => d.FindElement(By.CssSelector($"{Search} .px-status")).Text.StartsWith("200 OK · application/xml", StringComparison.Ordinal));
        Assert.Contains("<title>Chai</title>", Driver.FindElement(By.CssSelector($"{Search} .px-answer")).Text, StringComparison.Ordinal);

        ChooseFormat("protobuf");
        Driver.FindElement(By.CssSelector($"{Search} button[type=submit]")).Click();
        Wait().Until(d => d.FindElement(By.CssSelector($"{Search} .px-status")).Text.StartsWith("200 OK · application/x-protobuf", StringComparison.Ordinal));
        Assert.Matches(@"^\d+ bytes: 0b [0-9a-f]{2}( [0-9a-f]{2})+$", Driver.FindElement(By.CssSelector($"{Search} .px-answer")).Text);
        Assert.EndsWith("-o answer.pb", Driver.FindElement(By.CssSelector($"{Search} .px-curl")).Text, StringComparison.Ordinal);

        // Search is not marked free of side effects, so the decoding (a second call) waits for a click.
        Driver.FindElement(By.CssSelector($"{Search} .px-result button")).Click();
        Wait().Until(d => d.FindElement(By.CssSelector($"{Search} .px-decoded")).Displayed);
        Assert.Contains("\"title\": \"Chai\"", Driver.FindElement(By.CssSelector($"{Search} .px-decoded")).Text, StringComparison.Ordinal);
        await AssertNoErrorLoggedAsync();
    }

    [BrowserFact]
    public async Task OnNorthwindTheRepeatedRowsOfAGetFormPostWithoutJavaScript()
    {
        Session.WithoutJavaScript(() =>
        {
            Driver.Navigate().GoToUrl(Session.Site.Url("/Northwind.proto"));
            var rows = Driver.FindElements(By.CssSelector($"{FindOrders} input[name='customer_ids[]']"));
            Assert.Equal(3, rows.Count);
            rows[0].SendKeys("VINET");
            rows[2].SendKeys("TOMSP");
            Driver.FindElement(By.CssSelector($"{FindOrders} input[name=limit]")).SendKeys("4");
            Driver.FindElement(By.CssSelector($"{FindOrders} button[formaction$='FindOrders.json']")).Click();

            Wait().Until(d => d.Url.Contains("/Northwind.proto/FindOrders.json?", StringComparison.Ordinal));
            Assert.Contains("customer_ids%5B%5D=VINET&customer_ids%5B%5D=&customer_ids%5B%5D=TOMSP", Driver.Url, StringComparison.Ordinal);
            var orders = JsonNode.Parse(Driver.FindElement(By.TagName("body")).Text)!["orders"]!.AsArray();
            Assert.Equal(4, orders.Count);
            Assert.Equal(["TOMSP", "VINET"], orders.Select(o => (string)o!["customerId"]!).Distinct().Order());
        });

        await AssertNoErrorLoggedAsync();
    }

    [BrowserFact]
    public async Task OnNorthwindANestedDateRangeAndAnAddedRowPostWithJavaScript()
    {
        SetJavaScript(enabled: true);
        Driver.Navigate().GoToUrl(Session.Site.Url("/Northwind.proto"));

        Driver.FindElement(By.CssSelector($"{FindOrders} .px-add")).Click();
        var rows = Driver.FindElements(By.CssSelector($"{FindOrders} input[name='customer_ids[]']"));
        Assert.Equal(4, rows.Count);
        rows[3].SendKeys("VINET");
        // A date-time input's typing order follows the machine's locale, so its value is set as a script would; the
        // browser keeps it in its shortest form (no :00 seconds).
        Driver.ExecuteScript(
            "arguments[0].value = '1996-07-05T00:00:00'; arguments[1].value = '1997-01-01T00:00';",
            Driver.FindElement(By.CssSelector($"{FindOrders} input[name='ordered.from']")),
            Driver.FindElement(By.CssSelector($"{FindOrders} input[name='ordered.until']")));
        Driver.FindElement(By.CssSelector($"{FindOrders} button[type=submit]")).Click();

        Wait().Until(d => d.FindElement(By.CssSelector($"{FindOrders} .px-status")).Text.StartsWith("200 OK", StringComparison.Ordinal));
        var orders = JsonNode.Parse(Driver.FindElement(By.CssSelector($"{FindOrders} .px-answer")).Text)!["orders"]!.AsArray();
        Assert.Equal([10274, 10295], orders.Select(o => (int)o!["orderId"]!));
        var curl = Driver.FindElement(By.CssSelector($"{FindOrders} .px-curl")).Text;
        Assert.Contains("/Northwind.proto/FindOrders?customer_ids%5B%5D=VINET&ordered.from=1996-07-05T00%3A00&ordered.until=1997-01-01T00%3A00'", curl, StringComparison.Ordinal);
        Assert.DoesNotContain("--data-raw", curl, StringComparison.Ordinal);
        await AssertNoErrorLoggedAsync();
    }

    [BrowserFact]
    public async Task AServerStreamFromTheFormShowsItsMessagesAsTheyArrive()
    {
        SetJavaScript(enabled: true);
        Driver.Navigate().GoToUrl(Session.Site.Url("/NorthwindStreams.proto"));
        const string Replay = "[id='NorthwindStreams.ReplayOrders']";

        Driver.FindElement(By.CssSelector($"{Replay} input[name=limit]")).SendKeys("3");
        Driver.FindElement(By.CssSelector($"{Replay} button[type=submit]")).Click();

        Wait().Until(d => d.FindElement(By.CssSelector($"{Replay} .px-status")).Text == "Ended after 3 messages: OK");
        var lines = Driver.FindElement(By.CssSelector($"{Replay} .px-answer")).Text.Split('\n', StringSplitOptions.RemoveEmptyEntries);
        Assert.Equal([10248, 10249, 10250], lines.Select(line => JsonDocument.Parse(line).RootElement.GetProperty("orderId").GetInt32()));
        Assert.StartsWith("curl -sSN -H 'Accept: application/x-ndjson' ", Driver.FindElement(By.CssSelector($"{Replay} .px-curl")).Text, StringComparison.Ordinal);
        await AssertNoErrorLoggedAsync();
    }

    private void ChooseFormat(string format) =>
        Driver.FindElements(By.CssSelector($"{Search} select.px-format option")).Single(option => option.Text == format).Click();
}
