namespace ProtoHttp.BrowserTests.Infrastructure;

/// <summary>
/// The system's Chromium and chromedriver (Debian's packages), which the browser tests drive. Nothing is ever
/// downloaded: without them the tests are skipped with the command that installs them (in CI they fail with it).
/// </summary>
public static class ChromiumBinaries
{
    public const string InstallCommand = "apt-get install -y chromium chromium-driver";

    /// <summary>The browser; <c>PROTOHTTP_CHROMIUM</c> names another one (say, on a machine without Debian's package).</summary>
    public static string Browser { get; } = Environment.GetEnvironmentVariable("PROTOHTTP_CHROMIUM") ?? "/usr/bin/chromium";

    /// <summary>The driver matching <see cref="Browser"/>; <c>PROTOHTTP_CHROMEDRIVER</c> names another one.</summary>
    public static string Driver { get; } = Environment.GetEnvironmentVariable("PROTOHTTP_CHROMEDRIVER") ?? "/usr/bin/chromedriver";

    /// <summary>Why the browser tests cannot run here, or <see langword="null"/> when they can.</summary>
    public static string? MissingReason { get; } = FindMissing();

    private static string? FindMissing()
    {
        var missing = new[] { Browser, Driver }.Where(path => !File.Exists(path)).ToList();
        return missing.Count == 0
            ? null
            : $"Chromium is needed for the browser tests but {string.Join(" and ", missing)} is missing; install it with: {InstallCommand}";
    }
}
