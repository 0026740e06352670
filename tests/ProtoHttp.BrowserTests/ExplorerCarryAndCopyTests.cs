using System.Text.Json.Nodes;
using OpenQA.Selenium;
using ProtoHttp.BrowserTests.Infrastructure;

namespace ProtoHttp.BrowserTests;

/// <summary>
/// The explorer's Form / JSON switch carrying what was entered each way, and its Copy buttons putting the curl and
/// buf curl lines on the clipboard, read back from Chromium's clipboard and run against the same server.
/// </summary>
[Collection(BrowserTestGroup.Name)]
public sealed class ExplorerCarryAndCopyTests : BrowserTest
{
    private const string Search = "[id='SearchService.Search']";
    private static readonly string[] ClipboardPermissions = ["clipboardReadWrite", "clipboardSanitizedWrite"];

    public ExplorerCarryAndCopyTests(BrowserSession session)
        : base(session)
    {
        SetJavaScript(enabled: true);
    }

    [BrowserFact]
    public async Task TheFormsValuesGoIntoTheJsonEditorAndTheEditorsComeBackIntoTheFormWhichSendsThem()
    {
        Driver.Navigate().GoToUrl(Session.Site.Url("/ProtoService.proto"));
        Driver.FindElement(By.CssSelector($"{Search} input[name=query]")).SendKeys("chai");
        Driver.FindElement(By.CssSelector($"{Search} input[name=result_per_page]")).SendKeys("3");

        Driver.FindElement(By.CssSelector($"{Search} .px-tab[data-mode=json]")).Click();
        // What the form would send, under the JSON names, the number as a number; the empty page_number is left out.
        var carried = JsonNode.Parse(Editor())!;
        Assert.True(JsonNode.DeepEquals(JsonNode.Parse("""{"query": "chai", "resultPerPage": 3}"""), carried), carried.ToJsonString());

        SetEditor(Search, """{"query": "tofu", "pageNumber": 1, "resultPerPage": 2}""");
        Driver.FindElement(By.CssSelector($"{Search} .px-tab[data-mode=form]")).Click();
        Assert.Equal(("tofu", "1", "2"), (FormValue("query"), FormValue("page_number"), FormValue("result_per_page")));

        Driver.FindElement(By.CssSelector($"{Search} form button[type=submit]")).Click();
        Wait().Until(d => Text(Search, ".px-status").StartsWith("200", StringComparison.Ordinal));
        // The form sent the two per page the editor gave it, both of them tofu.
        var titles = JsonNode.Parse(Text(Search, ".px-answer"))!["result"]!.AsArray().Select(r => (string)r!["title"]!).ToList();
        Assert.Equal(2, titles.Count);
        Assert.All(titles, title => Assert.Contains("Tofu", title, StringComparison.Ordinal));
        Assert.Contains("'query=tofu&page_number=1&result_per_page=2'", Text(Search, ".px-curl"), StringComparison.Ordinal);
        await AssertNoErrorLoggedAsync();
    }

    [BufCurlFact]
    public async Task TheCopyButtonsPutTheCurlAndBufCurlLinesOnTheClipboardAndEachAnswersAsThePageDid()
    {
        Driver.Navigate().GoToUrl(Session.Site.Url("/ProtoService.proto"));
        // Chromium asks a person before a page reads the clipboard; the test grants it for the site, as a person would.
        Driver.ExecuteCdpCommand("Browser.grantPermissions", new Dictionary<string, object?>
        {
            ["origin"] = Session.Site.Address.GetLeftPart(UriPartial.Authority),
            ["permissions"] = ClipboardPermissions,
        });
        Driver.FindElement(By.CssSelector($"{Search} .px-tab[data-mode=json]")).Click();
        SetEditor(Search, """{"query": "chang", "resultPerPage": 1}""");
        Driver.FindElement(By.CssSelector($"{Search} .px-editor .px-send")).Click();
        Wait().Until(d => Text(Search, ".px-status").StartsWith("200", StringComparison.Ordinal));
        var answer = JsonNode.Parse(Text(Search, ".px-answer"))!;
        Assert.Equal("Chang", (string?)answer["result"]![0]!["title"]);

        var curl = Copy(".px-curl");
        Assert.StartsWith("curl -sS ", curl, StringComparison.Ordinal);
        var fromCurl = JsonNode.Parse(await ShellLine.RunAsync(curl))!;
        Assert.True(JsonNode.DeepEquals(answer, fromCurl), $"the copied curl line answered {fromCurl}");

        var bufCurl = Copy(".px-buf-curl");
        Assert.Contains("| buf curl ", bufCurl, StringComparison.Ordinal);
        var fromBuf = JsonNode.Parse(await ShellLine.RunAsync(bufCurl))!;
        Assert.True(JsonNode.DeepEquals(answer, fromBuf), $"the copied buf curl line answered {fromBuf}");
        await AssertNoErrorLoggedAsync();
    }

    private string Editor() => Driver.FindElement(By.CssSelector($"{Search} textarea.px-json")).GetDomProperty("value")!;

    private string FormValue(string name) => Driver.FindElement(By.CssSelector($"{Search} form [name={name}]")).GetDomProperty("value")!;

    /// <summary>Clicks the Copy button beside the command line <paramref name="line"/> and reads the clipboard.</summary>
    private string Copy(string line)
    {
        var button = Driver.FindElement(By.CssSelector($"{Search} .px-command:has({line}) .px-copy"));
        button.Click();
        Wait().Until(_ => button.Text != "Copy");
        Assert.Equal("Copied", button.Text);
        return (string)Driver.ExecuteAsyncScript("const done = arguments[arguments.length - 1]; navigator.clipboard.readText().then(done, e => done('read failed: ' + e));")!;
    }
}
