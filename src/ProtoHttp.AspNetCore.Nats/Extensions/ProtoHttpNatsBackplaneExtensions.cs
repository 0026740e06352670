using ProtoHttp.AspNetCore;
using ProtoHttp.AspNetCore.Nats;

namespace Microsoft.Extensions.DependencyInjection;

/// <summary>Puts ProtoHttp's topics in NATS JetStream.</summary>
public static class ProtoHttpNatsBackplaneExtensions
{
    /// <summary>
    /// Keeps every topic in a JetStream stream, so that all instances of the app share its messages and a stream
    /// resumes on any instance (docs/deploy.md, "NATS JetStream").
    /// </summary>
    /// <param name="builder">The builder <c>AddProtoHttp()</c> returned.</param>
    /// <param name="url">The NATS server's URL, <c>nats://host:4222</c>.</param>
    /// <param name="configure">Sets retention and names.</param>
    /// <returns>The builder.</returns>
    /// <exception cref="InvalidOperationException">The URL is empty, or no retention bound is set.</exception>
    public static IProtoHttpServerBuilder AddNatsBackplane(this IProtoHttpServerBuilder builder, string url, Action<NatsBackplaneOptions>? configure = null)
    {
        ArgumentNullException.ThrowIfNull(builder);
        var options = new NatsBackplaneOptions { Url = url };
        configure?.Invoke(options);
        if (string.IsNullOrWhiteSpace(options.Url))
        {
            throw new InvalidOperationException("AddNatsBackplane needs the NATS server's URL, such as nats://localhost:4222.");
        }

        if (options.MaxLength is null && options.MaxAge is null)
        {
            throw new InvalidOperationException("AddNatsBackplane needs MaxLength or MaxAge: a topic's stream would otherwise grow without end.");
        }

        builder.Services.Configure<NatsBackplaneOptions>(o =>
        {
            o.Url = options.Url;
            o.Prefix = options.Prefix;
            o.MaxLength = options.MaxLength;
            o.MaxAge = options.MaxAge;
        });
        return builder.AddTopicEngine<NatsTopicEngine>();
    }
}
