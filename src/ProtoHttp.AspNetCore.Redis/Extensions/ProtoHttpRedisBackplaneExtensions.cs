using ProtoHttp.AspNetCore;
using ProtoHttp.AspNetCore.Redis;

namespace Microsoft.Extensions.DependencyInjection;

/// <summary>Puts ProtoHttp's topics in Redis.</summary>
public static class ProtoHttpRedisBackplaneExtensions
{
    /// <summary>
    /// Keeps every topic in a Redis stream, so that all instances of the app share its messages and a stream resumes
    /// on any instance (docs/deploy.md, "Redis").
    /// </summary>
    /// <param name="builder">The builder <c>AddProtoHttp()</c> returned.</param>
    /// <param name="configuration">A StackExchange.Redis configuration string: <c>host:port</c>, then <c>,password=…</c>, <c>,ssl=true</c>, ….</param>
    /// <param name="configure">Sets retention and key names.</param>
    /// <returns>The builder.</returns>
    /// <exception cref="InvalidOperationException">The configuration string cannot be read, or no retention bound is set.</exception>
    public static IProtoHttpServerBuilder AddRedisBackplane(this IProtoHttpServerBuilder builder, string configuration, Action<RedisBackplaneOptions>? configure = null)
    {
        ArgumentNullException.ThrowIfNull(builder);
        var options = new RedisBackplaneOptions { Configuration = configuration };
        configure?.Invoke(options);
        RedisConfiguration.Parse(options.Configuration);
        if (options.MaxLength is null && options.MaxAge is null)
        {
            throw new InvalidOperationException("AddRedisBackplane needs MaxLength or MaxAge: a topic's stream would otherwise grow without end.");
        }

        builder.Services.Configure<RedisBackplaneOptions>(o =>
        {
            o.Configuration = options.Configuration;
            o.KeyPrefix = options.KeyPrefix;
            o.MaxLength = options.MaxLength;
            o.MaxAge = options.MaxAge;
        });
        return builder.AddTopicEngine<RedisTopicEngine>();
    }
}
