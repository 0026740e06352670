using System.Collections.Concurrent;
using Google.Protobuf;
using Microsoft.Extensions.Logging;
using Microsoft.Extensions.Options;

namespace ProtoHttp.AspNetCore.Topics;

/// <summary>The app's topics: one <see cref="TopicHub{T}"/> per name, started on first use, stopped with the app.</summary>
internal sealed class ProtoTopics(ITopicEngine engine, EngineHealth health, IOptions<ProtoTopicOptions> options, ILoggerFactory loggerFactory)
    : IProtoTopics, IAsyncDisposable
{
    private readonly ConcurrentDictionary<string, object> _topics = new(StringComparer.Ordinal);
    private readonly ILogger _logger = loggerFactory.CreateLogger("ProtoHttp.AspNetCore.Topics");

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
        var hub = new TopicHub<T>(name, engine, health, options.Value, _logger);
        hub.Start();
        return new ProtoTopic<T>(hub, engine, health, options.Value);
    }
}
