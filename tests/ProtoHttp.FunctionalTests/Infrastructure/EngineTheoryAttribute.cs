namespace ProtoHttp.FunctionalTests.Infrastructure;

/// <summary>
/// A theory over the topic engines (<c>redis-server</c>, <c>nats-server</c>): skipped, saying how to install them, where
/// one is missing; never skipped where the <c>CI</c> variable is set, since a skip passes silently.
/// </summary>
public sealed class EngineTheoryAttribute : TheoryAttribute
{
    public EngineTheoryAttribute()
    {
        if ((RedisServer.MissingReason ?? NatsServer.MissingReason) is { } reason && Environment.GetEnvironmentVariable("CI") is not { Length: > 0 })
        {
            Skip = reason;
        }
    }
}
