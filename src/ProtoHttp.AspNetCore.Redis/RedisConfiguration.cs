using StackExchange.Redis;

namespace ProtoHttp.AspNetCore.Redis;

/// <summary>Reads the configuration string once, at startup, so a wrong one stops the app with a sentence that says so.</summary>
internal static class RedisConfiguration
{
    public static ConfigurationOptions Parse(string configuration)
    {
        if (string.IsNullOrWhiteSpace(configuration))
        {
            throw new InvalidOperationException("AddRedisBackplane needs a StackExchange.Redis configuration string such as localhost:6379.");
        }

        ConfigurationOptions options;
        try
        {
            options = ConfigurationOptions.Parse(configuration);
        }
        catch (ArgumentException e)
        {
            // The string may hold a password: it is not repeated.
            throw new InvalidOperationException($"AddRedisBackplane was given something that is not a StackExchange.Redis configuration string such as localhost:6379: {e.Message}", e);
        }

        options.ClientName ??= "protohttp-topics";
        // Connect in the background and keep trying: an instance that starts while Redis is away serves everything
        // else, and its topics start when Redis answers.
        options.AbortOnConnectFail = false;
        // While disconnected, a command fails at once instead of waiting in a backlog to run later: a publish the
        // caller was told failed must not be appended after all. Publishes retry what was never sent, within their
        // timeout (ProtoTopicOptions.PublishTimeout); reads retry at the poll interval.
        options.BacklogPolicy = BacklogPolicy.FailFast;
        return options;
    }
}
