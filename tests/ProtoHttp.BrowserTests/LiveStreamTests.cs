using OpenQA.Selenium;
using ProtoHttp.BrowserTests.Infrastructure;

namespace ProtoHttp.BrowserTests;

/// <summary>The search page's live section in real headless Chromium: streams read by the browser's own EventSource.</summary>
[Collection(BrowserTestGroup.Name)]
public sealed class LiveStreamTests(BrowserSession session) : BrowserTest(session, waitSeconds: 15)
{
    [BrowserFact]
    public async Task ThePriceFeedShowsTicksAsTheyArriveUntilStopped()
    {
        OpenPage();

        Driver.FindElement(By.Id("watch-prices")).Click();
        Wait().Until(d => d.FindElements(By.CssSelector("#price-ticks li")).Count >= 2);
        Driver.FindElement(By.Id("stop-prices")).Click();

        var shown = Driver.FindElements(By.CssSelector("#price-ticks li")).Select(li => li.Text).ToList();
        Assert.All(shown, tick => Assert.Matches(@"^.+: \d+\.\d{2}$", tick));
        Assert.Equal($"Stopped after {shown.Count} ticks.", Driver.FindElement(By.Id("live-status")).Text);
        await AssertNoErrorLoggedAsync();
    }

    [BrowserFact]
    public void ABoundedStreamClosesOnItsEndEvent()
    {
        OpenPage();

        Submit(limit: "3");

        Wait().Until(d => d.FindElement(By.Id("live-status")).Text.StartsWith("Replay ended", StringComparison.Ordinal));
        Assert.Equal("Replay ended: OK, 3 orders.", Driver.FindElement(By.Id("live-status")).Text);
        Assert.Equal(["Order 10248 for VINET", "Order 10249 for TOMSP", "Order 10250 for HANAR"],
            Driver.FindElements(By.CssSelector("#replay-orders li")).Select(li => li.Text));
        Assert.False(Driver.FindElement(By.Id("live-error")).Displayed);
    }

    [BrowserFact]
    public void AFailureShowsItsErrorText()
    {
        OpenPage();

        Submit(limit: "-1");

        var error = Driver.FindElement(By.Id("live-error"));
        Wait().Until(_ => error.Displayed);
        Assert.Equal("limit cannot be negative.", error.Text);
        Assert.Equal("Replay failed.", Driver.FindElement(By.Id("live-status")).Text);
    }

    private void OpenPage()
    {
        // The tab is shared, and another test may have turned page scripts off in it.
        SetJavaScript(enabled: true);
        Driver.Navigate().GoToUrl(Session.Site.Url("/"));
        Wait().Until(d => d.FindElement(By.Id("watch-prices")).Enabled);
    }

    private void Submit(string limit)
    {
        var input = Driver.FindElement(By.Id("replay-limit"));
        input.Clear();
        input.SendKeys(limit);
        Driver.FindElement(By.CssSelector("#replay-form button[type=submit]")).Click();
    }
}
