namespace ProtoHttp.BrowserTests.Infrastructure;

/// <summary>
/// A fact that needs Chromium and the buf command line: skipped, saying how to install what is missing, except where
/// the <c>CI</c> variable is set, where the test runs and fails with the same reason (a skip passes silently).
/// </summary>
public sealed class BufCurlFactAttribute : FactAttribute
{
    public BufCurlFactAttribute()
    {
        if ((ChromiumBinaries.MissingReason ?? BufCli.MissingReason) is { } reason && Environment.GetEnvironmentVariable("CI") is not { Length: > 0 })
        {
            Skip = reason;
        }
    }
}
