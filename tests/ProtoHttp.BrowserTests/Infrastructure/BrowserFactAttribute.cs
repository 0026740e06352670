namespace ProtoHttp.BrowserTests.Infrastructure;

/// <summary>A fact that needs Chromium: skipped, saying how to install it, where it is missing.</summary>
public sealed class BrowserFactAttribute : FactAttribute
{
    public BrowserFactAttribute()
    {
        if (ChromiumBinaries.MissingReason is { } reason)
        {
            Skip = reason;
        }
    }
}
