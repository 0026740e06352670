namespace ProtoHttp.FunctionalTests.Infrastructure;

/// <summary>A theory that needs <c>redis-server</c>: skipped where it is missing, as <see cref="RedisFactAttribute"/> says, never in CI.</summary>
public sealed class RedisTheoryAttribute : TheoryAttribute
{
    public RedisTheoryAttribute()
    {
        if (RedisServer.MissingReason is { } reason && Environment.GetEnvironmentVariable("CI") is not { Length: > 0 })
        {
            Skip = reason;
        }
    }
}
