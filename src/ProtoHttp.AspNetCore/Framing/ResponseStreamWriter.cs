using Google.Protobuf;
using Grpc.Core;

namespace ProtoHttp.AspNetCore.Framing;

/// <summary>The <see cref="IServerStreamWriter{T}"/> a service writes its response messages to, over the call's <see cref="StreamResponseWriter"/>.</summary>
internal sealed class ResponseStreamWriter<TResponse>(StreamResponseWriter writer, CancellationToken callToken) : IServerStreamWriter<TResponse>
    where TResponse : class
{
    /// <summary>Kept for services that set it; ProtoHttp flushes every message, so it changes nothing.</summary>
    public WriteOptions? WriteOptions { get; set; }

    public Task WriteAsync(TResponse message) => writer.WriteMessageAsync((IMessage)message, null, callToken);

    public Task WriteAsync(TResponse message, CancellationToken cancellationToken) => WriteAsync((IMessage)message, null, cancellationToken);

    /// <summary>Writes a message shared by many streams: its framing's bytes are made once (see <see cref="BroadcastMessage{T}"/>).</summary>
    public Task WriteAsync<T>(BroadcastMessage<T> message, CancellationToken cancellationToken)
        where T : class, IMessage<T> =>
        WriteAsync(message.Message, message, cancellationToken);

    /// <summary>
    /// Tells the reader that messages after <paramref name="after"/> are gone from the topic's log; false where the
    /// framing has no notice for it (docs/protocol.md, "Topics: streams that resume").
    /// </summary>
    public Task<bool> WriteGapAsync(TopicPosition after, CancellationToken cancellationToken) => writer.WriteGapAsync(after, cancellationToken);

    private Task WriteAsync(IMessage message, ISharedFrames? shared, CancellationToken cancellationToken) =>
        cancellationToken.CanBeCanceled ? WriteLinkedAsync(message, shared, cancellationToken) : writer.WriteMessageAsync(message, shared, callToken);

    private async Task WriteLinkedAsync(IMessage message, ISharedFrames? shared, CancellationToken cancellationToken)
    {
        using var linked = CancellationTokenSource.CreateLinkedTokenSource(callToken, cancellationToken);
        await writer.WriteMessageAsync(message, shared, linked.Token);
    }
}
