using System.Collections.Concurrent;
using Google.Protobuf;
using Microsoft.Extensions.Hosting;
using Microsoft.Extensions.Logging;
using Microsoft.Extensions.Options;

namespace ProtoHttp.AspNetCore.Topics;

/// <summary>The app's topics: one <see cref="TopicHub{T}"/> per name, started on first use, stopped with the app.</summary>
internal sealed class ProtoTopics : IProtoTopics, IAsyncDisposable
{
    private readonly ConcurrentDictionary<string, object> _topics = new(StringComparer.Ordinal);
    private readonly ITopicEngine _engine;
    private readonly EngineHealth _health;
    private readonly ProtoTopicOptions _options;
    private readonly ILogger _logger;

    public ProtoTopics(ITopicEngine engine, EngineHealth health, IOptions<ProtoTopicOptions> options, ILoggerFactory loggerFactory, IHostApplicationLifetime lifetime)
    {
        _engine = engine;
        _health = health;
        _options = options.Value;
        _logger = loggerFactory.CreateLogger("ProtoHttp.AspNetCore.Topics");
        // Subscriptions end as the app starts to stop, not when the container is disposed: a graceful shutdown waits
        // for requests, and a subscription is one that would never end by itself. Its client resumes elsewhere.
        lifetime.ApplicationStopping.Register(() =>
        {
            foreach (var topic in _topics.Values)
            {
                ((ITopicHubOwner)topic).Hub.Stop();
            }
        });
    }

    public ProtoTopic<T> Topic<T>(string name)
        where T : class, IMessage<T>, new()
    {
        if (string.IsNullOrEmpty(name) || !name.All(c => char.IsAsciiLetterOrDigit(c) || c is '.' or '-' or '_'))
        {
            throw new ArgumentException($"'{name}' is not a topic name: use letters, digits, '.', '-' and '_'.", nameof(name));
        }

        var topic = _topics.GetOrAdd(name, static (name, self) => self.Create<T>(name), this);
        return topic as ProtoTopic<T>
            ?? throw new InvalidOperationException($"The topic '{name}' carries {((ITopicHubOwner)topic).Hub.MessageType.Name}, not {typeof(T).Name}.");
    }

    public async ValueTask DisposeAsync()
    {
        foreach (var topic in _topics.Values)
        {
            await ((ITopicHubOwner)topic).Hub.DisposeAsync();
        }
    }

    private ProtoTopic<T> Create<T>(string name)
        where T : class, IMessage<T>, new()
    {
        var hub = new TopicHub<T>(name, _engine, _health, _options, _logger);
        hub.Start();
        return new ProtoTopic<T>(hub, _engine, _health, _options);
    }
}
