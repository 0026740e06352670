using System.Text.Json.Nodes;
using OpenQA.Selenium;
using OpenQA.Selenium.Chrome;
using OpenQA.Selenium.Support.UI;
using ProtoHttp.BrowserTests.Infrastructure;

namespace ProtoHttp.BrowserTests;

/// <summary>
/// The explorer's REST forms in real headless Chromium (docs/explorer.md): each rule's form filled and sent with the
/// rule's verb, the variables in the path, the query and the JSON body; the answer, a stream's messages and the curl
/// line; and without JavaScript the plain GET form of a rule without variables.
/// </summary>
[Collection(BrowserTestGroup.Name)]
public sealed class RestExplorerCallTests(BrowserSession session) : IAsyncLifetime
{
    private const string GetShelf = "[id='Library.GetShelf-rest-1']";
    private const string UpdateBook = "[id='Library.UpdateBook-rest-1']";
    private const string WatchShelf = "[id='Library.WatchShelf-rest-1']";
    private const string SearchBooks = "[id='Library.SearchBooks-rest-1']";

    private readonly LibrarySite _site = new();

    private ChromeDriver Driver => session.Driver;

    public Task InitializeAsync()
    {
        session.SetJavaScript(enabled: true);
        return _site.InitializeAsync();
    }

    public Task DisposeAsync() => _site.DisposeAsync();

    [BrowserFact]
    public async Task GetShelfPutsTheVariableIntoThePathEncodedAndShowsTheAnswer()
    {
        Driver.Navigate().GoToUrl(_site.Url("/library.proto"));
        Assert.True(Driver.FindElement(By.CssSelector($"{GetShelf} button[type=submit]")).Enabled, "the script enables the Call button");
        Assert.Empty(Driver.FindElements(By.CssSelector($"{GetShelf} .px-noscript-hint")));

        Driver.FindElement(By.CssSelector($"{GetShelf} input[data-path-variable=shelf]")).SendKeys("s 1/x");
        Driver.FindElement(By.CssSelector($"{GetShelf} button[type=submit]")).Click();

        Wait().Until(d => d.FindElement(By.CssSelector($"{GetShelf} .px-status")).Text.StartsWith("200", StringComparison.Ordinal));
        Assert.Equal("s 1/x", (string?)JsonNode.Parse(Text(GetShelf, ".px-answer"))!["id"]);
        Assert.Equal($"curl -sS -H 'Accept: application/json' '{_site.Url("/")}v1/shelves/s%201%2Fx'", Text(GetShelf, ".px-curl"));
        Assert.Empty(await _site.Logs.ErrorsOnceEndedAsync());
    }

    [BrowserFact]
    public async Task UpdateBookSendsPatchWithTheBodyTheQueryAndTheNestedVariable()
    {
        Driver.Navigate().GoToUrl(_site.Url("/library.proto"));
        Driver.FindElement(By.CssSelector($"{UpdateBook} input[data-path-variable='book.name']")).SendKeys("shelves/s1/books/b1");
        Driver.FindElement(By.CssSelector($"{UpdateBook} input[name=update_mask]")).SendKeys("title");
        var body = Driver.FindElement(By.CssSelector($"{UpdateBook} textarea.px-rest-body"));
        body.Clear();
        body.SendKeys("""{"title": "Dune", "pages": 412}""");
        Driver.FindElement(By.CssSelector($"{UpdateBook} button[type=submit]")).Click();

        Wait().Until(d => d.FindElement(By.CssSelector($"{UpdateBook} .px-status")).Text.StartsWith("200", StringComparison.Ordinal));
        var book = JsonNode.Parse(Text(UpdateBook, ".px-answer"))!;
        Assert.Equal("shelves/s1/books/b1", (string?)book["name"]);
        Assert.Equal("Dune", (string?)book["title"]);
        Assert.Equal(412, (int)book["pages"]!);
        Assert.Equal(["title"], book["tags"]!.AsArray().Select(t => (string?)t));
        Assert.Equal(
            $"curl -sS -X PATCH -H 'Accept: application/json' -H 'Content-Type: application/json' --data-raw '{{\"title\":\"Dune\",\"pages\":412}}' '{_site.Url("/v1/shelves/s1/books/b1?update_mask=title")}'",
            Text(UpdateBook, ".px-curl"));
        Assert.Empty(await _site.Logs.ErrorsOnceEndedAsync());
    }

    [BrowserFact]
    public async Task WatchShelfShowsEachMessageOfTheStream()
    {
        Driver.Navigate().GoToUrl(_site.Url("/library.proto"));
        Driver.FindElement(By.CssSelector($"{WatchShelf} input[data-path-variable=shelf]")).SendKeys("s1");
        Driver.FindElement(By.CssSelector($"{WatchShelf} input[name=count]")).SendKeys("3");
        Driver.FindElement(By.CssSelector($"{WatchShelf} button[type=submit]")).Click();

        Wait().Until(d => d.FindElement(By.CssSelector($"{WatchShelf} .px-status")).Text.StartsWith("Ended", StringComparison.Ordinal));
        Assert.Equal("Ended after 3 messages: OK", Text(WatchShelf, ".px-status"));
        var names = Text(WatchShelf, ".px-answer").Split('\n').Select(line => (string?)JsonNode.Parse(line)!["name"]);
        Assert.Equal(["shelves/s1/books/0", "shelves/s1/books/1", "shelves/s1/books/2"], names);
        Assert.Empty(await _site.Logs.ErrorsOnceEndedAsync());
    }

    [BrowserFact]
    public async Task WithoutJavaScriptARuleWithoutVariablesIsAGetFormAndTheOthersSayTheyNeedTheScript()
    {
        session.WithoutJavaScript(() =>
        {
            Driver.Navigate().GoToUrl(_site.Url("/library.proto"));
            Assert.False(Driver.FindElement(By.CssSelector($"{GetShelf} button[type=submit]")).Enabled);
            Assert.Contains("JavaScript", Driver.FindElement(By.CssSelector($"{GetShelf} .px-noscript-hint")).Text, StringComparison.Ordinal);

            Driver.FindElement(By.CssSelector($"{SearchBooks} input[name=query]")).SendKeys("dune");
            Driver.FindElement(By.CssSelector($"{SearchBooks} input[name=max_results]")).SendKeys("9007199254740993");
            Driver.FindElement(By.CssSelector($"{SearchBooks} button[type=submit]")).Click();

            Wait().Until(d => d.Url.Contains("/v1/books:search?", StringComparison.Ordinal));
            Assert.Equal("application/xml", Script("return document.contentType"));
            Assert.Equal("dune", Script("return document.querySelector('request > query').textContent"));
            Assert.Equal("9007199254740993", Script("return document.querySelector('request > maxResults, request > max_results').textContent"));
        });

        Assert.Empty(await _site.Logs.ErrorsOnceEndedAsync());
    }

    private string Text(string section, string selector) => Driver.FindElement(By.CssSelector($"{section} {selector}")).Text;

    private object? Script(string script) => Driver.ExecuteScript(script);

    private WebDriverWait Wait() => new(Driver, TimeSpan.FromSeconds(10));
}
