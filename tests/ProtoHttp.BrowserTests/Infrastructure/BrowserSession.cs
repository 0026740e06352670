using OpenQA.Selenium.Chrome;

namespace ProtoHttp.BrowserTests.Infrastructure;

/// <summary>
/// The sample site and one headless Chromium, with a fresh profile, shared by the browser tests. Where Chromium is
/// missing only the site starts (the tests are skipped, or in CI fail when they ask for the driver).
/// </summary>
public sealed class BrowserSession : IAsyncLifetime
{
    private readonly string _profile = Path.Combine(Path.GetTempPath(), "protohttp-chromium-" + Guid.NewGuid().ToString("N"));
    private SampleSite? _site;
    private ChromeDriver? _driver;

    public SampleSite Site => _site ?? throw new InvalidOperationException("The site has not started.");

    public ChromeDriver Driver => _driver ?? throw new InvalidOperationException(ChromiumBinaries.MissingReason ?? "Chromium has not started.");

    public async Task InitializeAsync()
    {
        _site = await SampleSite.StartAsync();
        if (ChromiumBinaries.MissingReason is null)
        {
            _driver = StartChromium();
        }
    }

    private ChromeDriver StartChromium()
    {
        // With the driver's path given Selenium skips Selenium Manager; pointing its path nowhere makes any attempt
        // to run it (and download a browser or driver) fail loudly instead.
        Environment.SetEnvironmentVariable("SE_MANAGER_PATH", "/nonexistent/selenium-manager-must-not-run");
        Environment.SetEnvironmentVariable("SE_OFFLINE", "true");

        var service = ChromeDriverService.CreateDefaultService(Path.GetDirectoryName(ChromiumBinaries.Driver)!, Path.GetFileName(ChromiumBinaries.Driver));
        service.HideCommandPromptWindow = true;
        service.SuppressInitialDiagnosticInformation = true;

        var options = new ChromeOptions { BinaryLocation = ChromiumBinaries.Browser };
        options.AddArguments(
            "--headless",
            "--no-sandbox",
            "--disable-gpu",
            "--disable-background-networking",
            "--no-first-run",
            "--disable-component-update",
            "--disable-sync",
            "--disable-quic",
            "--window-size=1100,1400",
            "--user-data-dir=" + _profile);
        return new ChromeDriver(service, options, TimeSpan.FromSeconds(60));
    }

    /// <summary>Turns page scripts off or on for the tab, so a page can prove it needs none.</summary>
    public void SetJavaScript(bool enabled) =>
        Driver.ExecuteCdpCommand("Emulation.setScriptExecutionDisabled", new Dictionary<string, object?> { ["value"] = !enabled });

    /// <summary>Runs <paramref name="steps"/> with page scripts off, and turns them back on for the next test.</summary>
    public void WithoutJavaScript(Action steps)
    {
        SetJavaScript(enabled: false);
        try
        {
            steps();
        }
        finally
        {
            SetJavaScript(enabled: true);
        }
    }

    public async Task DisposeAsync()
    {
        _driver?.Quit();
        _driver?.Dispose();
        if (_site is not null)
        {
            await _site.DisposeAsync();
        }

        if (Directory.Exists(_profile))
        {
            Directory.Delete(_profile, recursive: true);
        }
    }
}
