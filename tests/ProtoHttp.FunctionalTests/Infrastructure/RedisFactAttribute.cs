namespace ProtoHttp.FunctionalTests.Infrastructure;

/// <summary>
/// A fact that needs <c>redis-server</c>: skipped, saying how to install it, where it is missing; never skipped where
/// the <c>CI</c> variable is set, since a skip passes silently: there the test runs and fails with the same reason.
/// </summary>
public sealed class RedisFactAttribute : FactAttribute
{
    public RedisFactAttribute()
    {
        if (RedisServer.MissingReason is { } reason && Environment.GetEnvironmentVariable("CI") is not { Length: > 0 })
        {
            Skip = reason;
        }
    }
}
