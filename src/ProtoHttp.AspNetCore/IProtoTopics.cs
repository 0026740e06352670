using Google.Protobuf;

namespace ProtoHttp.AspNetCore;

/// <summary>
/// The topics of this app, resolved from DI (<c>AddProtoHttp()</c> registers it): a service publishes to a topic by
/// name and subscribes its response streams to it. Every subscriber on every instance gets each message once, in one
/// order; a stream that breaks resumes on any instance with <c>Last-Event-ID</c> (docs/protocol.md, "Topics: streams
/// that resume"). Without an engine (<c>AddRedisBackplane</c>, …) topics live in this process only.
/// </summary>
public interface IProtoTopics
{
    /// <summary>The topic named <paramref name="name"/>, carrying messages of type <typeparamref name="T"/>.</summary>
    /// <param name="name">The topic's name: the engine's key or subject is made from it, so keep it to letters, digits, <c>.</c>, <c>-</c> and <c>_</c>.</param>
    /// <typeparam name="T">The message type; one per name.</typeparam>
    /// <exception cref="ArgumentException">The name is empty or holds other characters.</exception>
    /// <exception cref="InvalidOperationException">The topic was asked for with another message type.</exception>
    ProtoTopic<T> Topic<T>(string name)
        where T : class, IMessage<T>, new();
}
