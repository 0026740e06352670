using System.Collections.ObjectModel;
using System.Globalization;
using System.Net.Http.Headers;
using System.Text.Json;
using OpenQA.Selenium;
using ProtoHttp.BrowserTests.Infrastructure;
using Xunit.Abstractions;

namespace ProtoHttp.BrowserTests;

/// <summary>The sample's search page, the address bar and the .proto link, in real headless Chromium.</summary>
[Collection(BrowserTestGroup.Name)]
public sealed class SearchPageTests : BrowserTest
{
    private const string ServiceFailed = "The service failed to handle the call.";

    private readonly ITestOutputHelper _output;

    public SearchPageTests(BrowserSession session, ITestOutputHelper output)
        : base(session)
    {
        _output = output;
    }

    [BrowserFact]
    public async Task TheAddressBarShowsTheSearchAsAnXmlDocument()
    {
        SetJavaScript(enabled: true);

        Driver.Navigate().GoToUrl(Session.Site.Url("/ProtoService.proto/Search?query=chai"));

        Assert.Equal("application/xml", Script("return document.contentType"));
        var shown = Driver.FindElement(By.TagName("body")).Text;
        // Chromium's XML viewer: its header line, then the tree as indented tags.
        Assert.StartsWith("This XML file does not appear to have any style information", shown, StringComparison.Ordinal);
        Assert.Contains("<root>\n<result>\n<url>https://northwind.example/products/1</url>\n<title>Chai</title>", shown, StringComparison.Ordinal);
        Assert.Equal("Chai", ShownXmlTitles()[0]);
        await AssertNoErrorLoggedAsync();
    }

    [BrowserFact]
    public async Task TheGetFormWorksWithoutJavaScript()
    {
        SetJavaScript(enabled: false);
        OpenSearchPage();
        Assert.True(Driver.FindElement(By.Id("no-script")).Displayed, "the page says what works without JavaScript");

        Driver.FindElement(By.CssSelector("#get-form input[name=query]")).SendKeys("chai");
        Driver.FindElement(By.CssSelector("#get-form button[type=submit]")).Click();

        Wait().Until(d => d.Url.Contains("/ProtoService.proto/Search?", StringComparison.Ordinal));
        Assert.EndsWith("/ProtoService.proto/Search?query=chai&page_number=1&result_per_page=10", Driver.Url, StringComparison.Ordinal);
        Assert.Equal("application/xml", Script("return document.contentType"));
        var titles = ShownXmlTitles();
        Assert.Equal("Chai", titles[0]);
        Assert.InRange(titles.Count, 2, 10);
        await AssertNoErrorLoggedAsync();
    }

    [BrowserFact]
    public async Task ThePostFormWorksWithoutJavaScript()
    {
        SetJavaScript(enabled: false);
        OpenSearchPage();

        Driver.FindElement(By.CssSelector("#post-form input[name=query]")).SendKeys("chai");
        Driver.FindElement(By.CssSelector("#post-form button[type=submit]")).Click();

        Wait().Until(d => d.Url.EndsWith("/ProtoService.proto/Search", StringComparison.Ordinal));
        Assert.Equal("application/xml", Script("return document.contentType"));
        var titles = ShownXmlTitles();
        Assert.Equal("Chai", titles[0]);
        Assert.Equal(5, titles.Count); // The form's "per page" default.
        await AssertNoErrorLoggedAsync();
    }

    [BrowserFact]
    public async Task TheScriptRendersHitsAsLinksAndPagesForwardAndBack()
    {
        SetJavaScript(enabled: true);
        OpenSearchPage();
        var pages = new[] { await SearchTitlesAsync("sauce", 1), await SearchTitlesAsync("sauce", 2), await SearchTitlesAsync("sauce", 3) };
        Assert.Equal([5, 5, 2], pages.Select(p => p.Count));

        Driver.FindElement(By.Id("script-query")).SendKeys("sauce");
        Driver.FindElement(By.CssSelector("#script-form button[type=submit]")).Click();

        AssertScriptPage(1, pages[0], previous: false, next: true);
        foreach (var link in Driver.FindElements(By.CssSelector("#script-hits li a")))
        {
            Assert.StartsWith("https://northwind.example/products/", link.GetAttribute("href"), StringComparison.Ordinal);
        }

        Assert.NotEmpty(Driver.FindElements(By.CssSelector("#script-hits li .snippet")));
        SaveScreenshot("protohttp-search-page.png");

        Driver.FindElement(By.Id("script-next")).Click();
        AssertScriptPage(2, pages[1], previous: true, next: true);
        Driver.FindElement(By.Id("script-next")).Click();
        AssertScriptPage(3, pages[2], previous: true, next: false);
        Driver.FindElement(By.Id("script-prev")).Click();
        AssertScriptPage(2, pages[1], previous: true, next: true);
        Driver.FindElement(By.Id("script-prev")).Click();
        AssertScriptPage(1, pages[0], previous: false, next: true);
        await AssertNoErrorLoggedAsync();
    }

    [BrowserFact]
    public async Task TheScriptShowsTheErrorResultTextForAnEmptyQuery()
    {
        SetJavaScript(enabled: true);
        OpenSearchPage();
        Driver.FindElement(By.Id("script-query")).SendKeys("chai");
        Driver.FindElement(By.CssSelector("#script-form button[type=submit]")).Click();
        Wait().Until(d => d.FindElements(By.CssSelector("#script-hits li")).Count > 0);

        Driver.FindElement(By.Id("script-query")).Clear();
        Driver.FindElement(By.CssSelector("#script-form button[type=submit]")).Click();

        var error = Driver.FindElement(By.Id("script-error"));
        Wait().Until(_ => error.Displayed);
        Assert.Equal(ServiceFailed, error.Text);
        Assert.Empty(Driver.FindElements(By.CssSelector("#script-hits li")));
        Assert.False(Driver.FindElement(By.Id("script-pager")).Displayed);
        // The sample's service refuses an empty query by throwing: the one error log this page may cause.
        var logged = Assert.Single(await Session.Site.Logs.ErrorsOnceEndedAsync());
        Assert.IsType<ArgumentException>(logged.Exception);
    }

    [BrowserFact]
    public async Task TheProtoLinkShowsTheProtoText()
    {
        SetJavaScript(enabled: true);
        OpenSearchPage();

        Driver.FindElement(By.Id("proto-link")).Click();

        Wait().Until(d => d.Url.EndsWith("/ProtoService.proto?format=text", StringComparison.Ordinal));
        Assert.Equal("text/plain", Script("return document.contentType"));
        var text = Driver.FindElement(By.TagName("body")).Text;
        Assert.StartsWith("syntax = \"proto2\";\n\npackage ProtoService;", text, StringComparison.Ordinal);
        Assert.Contains("rpc Search (SearchRequest) returns (SearchResponse);", text, StringComparison.Ordinal);
        await AssertNoErrorLoggedAsync();
    }

    private void OpenSearchPage()
    {
        Driver.Navigate().GoToUrl(Session.Site.Url("/"));
        Assert.Equal("ProtoHttp search", Driver.Title);
    }

    private void AssertScriptPage(int page, List<string> titles, bool previous, bool next)
    {
        Wait().Until(d => d.FindElement(By.Id("script-page")).Text == $"Page {page}"
            && d.FindElements(By.CssSelector("#script-hits li a")).Select(a => a.Text).SequenceEqual(titles));
        Assert.Equal(((page - 1) * 5) + 1, int.Parse(Driver.FindElement(By.Id("script-hits")).GetDomProperty("start")!, CultureInfo.InvariantCulture));
        Assert.Equal(previous, Driver.FindElement(By.Id("script-prev")).Enabled);
        Assert.Equal(next, Driver.FindElement(By.Id("script-next")).Enabled);
        Assert.False(Driver.FindElement(By.Id("script-error")).Displayed);
    }

    /// <summary>The titles in the XML the page shows; Chromium's XML viewer keeps the document it renders.</summary>
    private List<string> ShownXmlTitles() =>
        ((ReadOnlyCollection<object>)Script("return Array.from(document.querySelectorAll('root > result > title'), t => t.textContent)")!)
            .Cast<string>().ToList();

    /// <summary>What the service itself answers for a page of five, to compare the script's rendering with.</summary>
    private async Task<List<string>> SearchTitlesAsync(string query, int page)
    {
        using var client = new HttpClient { BaseAddress = Session.Site.Address };
        using var request = new HttpRequestMessage(HttpMethod.Get, $"/ProtoService.proto/Search?query={query}&page_number={page}&result_per_page=5");
        request.Headers.Accept.Add(new MediaTypeWithQualityHeaderValue("application/json"));
        using var response = await client.SendAsync(request);
        response.EnsureSuccessStatusCode();
        using var json = JsonDocument.Parse(await response.Content.ReadAsStringAsync());
        return json.RootElement.TryGetProperty("result", out var results)
            ? results.EnumerateArray().Select(r => r.GetProperty("title").GetString()!).ToList()
            : [];
    }

    private void SaveScreenshot(string name)
    {
        // Kept outside the repository: for a person to look at, never committed.
        var path = Path.Combine(Path.GetTempPath(), name);
        Driver.GetScreenshot().SaveAsFile(path);
        _output.WriteLine("Screenshot: " + path);
    }
}
