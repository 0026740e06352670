using ProtoHttp.FunctionalTests.Infrastructure;

namespace ProtoHttp.BrowserTests.Infrastructure;

/// <summary>
/// A fact that needs Chromium and <c>redis-server</c>: skipped, saying how to install what is missing, where either
/// is; never skipped where the <c>CI</c> variable is set: there the test runs and fails with the same reason.
/// </summary>
public sealed class BrowserRedisFactAttribute : FactAttribute
{
    public BrowserRedisFactAttribute()
    {
        if ((ChromiumBinaries.MissingReason ?? RedisServer.MissingReason) is { } reason && Environment.GetEnvironmentVariable("CI") is not { Length: > 0 })
        {
            Skip = reason;
        }
    }
}
