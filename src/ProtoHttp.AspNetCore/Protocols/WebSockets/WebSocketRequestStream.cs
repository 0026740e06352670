using Grpc.Core;
using ProtoHttp.AspNetCore.Internal;
using ProtoHttp.AspNetCore.Pipeline;

namespace ProtoHttp.AspNetCore.Protocols.WebSockets;

/// <summary>
/// The <see cref="IAsyncStreamReader{T}"/> a client-streaming or bidirectional service reads over WebSocket: the
/// messages of the call's <see cref="WebSocketConnection"/> until the client's half-close.
/// </summary>
internal sealed class WebSocketRequestStream<TRequest>(WebSocketConnection connection, CancellationToken callToken)
    : IAsyncStreamReader<TRequest>, IRequestStream
    where TRequest : class
{
    public TRequest Current { get; private set; } = null!;

    public CallRejectedException? Fault => connection.Fault;

    public async Task<bool> MoveNext(CancellationToken cancellationToken)
    {
        using var linked = cancellationToken.CanBeCanceled ? CancellationTokenSource.CreateLinkedTokenSource(callToken, cancellationToken) : null;
        if (await connection.ReadAsync(linked?.Token ?? callToken) is not { } message)
        {
            return false;
        }

        Current = (TRequest)message;
        return true;
    }

    /// <summary>Nothing to stop: the connection's receive loop ends with the socket, which the response writer closes.</summary>
    public Task StopAsync() => Task.CompletedTask;
}
