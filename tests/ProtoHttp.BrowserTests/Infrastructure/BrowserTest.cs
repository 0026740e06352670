using OpenQA.Selenium;
using OpenQA.Selenium.Chrome;
using OpenQA.Selenium.Support.UI;

namespace ProtoHttp.BrowserTests.Infrastructure;

/// <summary>
/// What every browser test class starts from: the shared site and Chromium (<see cref="BrowserSession"/>), the site's
/// log cleared for the test, and the helpers each test uses on the tab. Each class still names the collection
/// (<see cref="BrowserTestGroup"/>) itself, as xUnit looks for it on the test class.
/// </summary>
public abstract class BrowserTest
{
    private readonly TimeSpan _wait;

    /// <param name="session">The collection's site and browser.</param>
    /// <param name="waitSeconds">How long <see cref="Wait"/> waits for the page.</param>
    protected BrowserTest(BrowserSession session, int waitSeconds = 10)
    {
        Session = session;
        _wait = TimeSpan.FromSeconds(waitSeconds);
        session.Site.Logs.Clear();
    }

    protected BrowserSession Session { get; }

    protected ChromeDriver Driver => Session.Driver;

    protected WebDriverWait Wait() => new(Driver, _wait);

    protected object? Script(string script) => Driver.ExecuteScript(script);

    protected void SetJavaScript(bool enabled) => Session.SetJavaScript(enabled);

    /// <summary>The text of <paramref name="selector"/> inside the explorer's panel of <paramref name="method"/>.</summary>
    protected string Text(string method, string selector) => Driver.FindElement(By.CssSelector($"{method} {selector}")).Text;

    /// <summary>Replaces the JSON editor's text in the explorer's panel of <paramref name="method"/>.</summary>
    protected void SetEditor(string method, string json)
    {
        var editor = Driver.FindElement(By.CssSelector($"{method} textarea.px-json"));
        editor.Clear();
        editor.SendKeys(json);
    }

    /// <summary>Sends <paramref name="json"/> from the editor of the explorer's panel of a streaming <paramref name="method"/>.</summary>
    protected void SendFromEditor(string method, string json)
    {
        SetEditor(method, json);
        Driver.FindElement(By.CssSelector($"{method} .px-send")).Click();
    }

    protected async Task AssertNoErrorLoggedAsync() => Assert.Empty(await Session.Site.Logs.ErrorsOnceEndedAsync());
}
