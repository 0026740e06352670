using Google.Protobuf;
using Grpc.Core;

namespace ProtoHttp.AspNetCore.GrpcWeb;

/// <summary>The <see cref="IServerStreamWriter{T}"/> a server-streaming service writes to in a gRPC-Web call: a frame per message.</summary>
internal sealed class GrpcWebStreamWriter<TResponse>(GrpcWebResponseWriter writer, CancellationToken callToken) : IServerStreamWriter<TResponse>
    where TResponse : class
{
    /// <summary>Kept for services that set it; every message is flushed, so it changes nothing.</summary>
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
