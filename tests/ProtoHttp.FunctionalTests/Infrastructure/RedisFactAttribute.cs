namespace ProtoHttp.FunctionalTests.Infrastructure;

/// <summary>A fact that needs <c>redis-server</c>: skipped, saying how to install it, where it is missing (never in CI).</summary>
public sealed class RedisFactAttribute : FactAttribute
{
    public RedisFactAttribute()
    {
        if (RedisServer.MissingReason is { } reason)
        {
            Skip = reason;
        }
    }
}
