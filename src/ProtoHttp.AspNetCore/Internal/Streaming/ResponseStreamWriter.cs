using Google.Protobuf;
using Grpc.Core;

namespace ProtoHttp.AspNetCore.Internal.Streaming;

/// <summary>The <see cref="IServerStreamWriter{T}"/> a service writes its response messages to, over the call's <see cref="StreamResponseWriter"/>.</summary>
internal sealed class ResponseStreamWriter<TResponse>(StreamResponseWriter writer, CancellationToken callToken) : IServerStreamWriter<TResponse>
    where TResponse : class
{
    /// <summary>Kept for services that set it; ProtoHttp flushes every message, so it changes nothing.</summary>
    public WriteOptions? WriteOptions { get; set; }

    public Task WriteAsync(TResponse message) => writer.WriteMessageAsync((IMessage)message, callToken);

    public async Task WriteAsync(TResponse message, CancellationToken cancellationToken)
    {
        if (!cancellationToken.CanBeCanceled)
        {
            await WriteAsync(message);
            return;
        }

        using var linked = CancellationTokenSource.CreateLinkedTokenSource(callToken, cancellationToken);
        await writer.WriteMessageAsync((IMessage)message, linked.Token);
    }
}
