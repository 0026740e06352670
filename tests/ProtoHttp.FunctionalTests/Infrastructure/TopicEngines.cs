namespace ProtoHttp.FunctionalTests.Infrastructure;

/// <summary>The engines the topic tests run over, by name (a theory's data).</summary>
public static class TopicEngines
{
    public const string Redis = "redis";
    public const string Nats = "nats";

    public static async Task<ITopicEngineServer> StartAsync(string engine) => engine switch
    {
        Redis => await RedisServer.StartAsync(),
        Nats => await NatsServer.StartAsync(),
        _ => throw new ArgumentOutOfRangeException(nameof(engine), engine, null),
    };
}
