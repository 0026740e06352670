using Google.Protobuf;
using Grpc.Core;
using ProtoHttp.AspNetCore.Framing;

namespace ProtoHttp.AspNetCore;

/// <summary>Writes a <see cref="BroadcastMessage{T}"/> to a server stream.</summary>
public static class ServerStreamWriterExtensions
{
    /// <summary>
    /// Writes <paramref name="message"/>'s message to the stream. On a ProtoHttp stream the bytes of its framing are
    /// made once for all the streams it is written to; on any other stream (gRPC, an interceptor's own writer) this is
    /// <c>stream.WriteAsync(message.Message, cancellationToken)</c>.
    /// </summary>
    /// <param name="stream">The service method's response stream.</param>
    /// <param name="message">The shared message.</param>
    /// <param name="cancellationToken">Cancels the write, as for <see cref="IAsyncStreamWriter{T}.WriteAsync(T, CancellationToken)"/>.</param>
    /// <typeparam name="T">The message type.</typeparam>
    /// <returns>A task that completes when the network has taken the message.</returns>
    public static Task WriteAsync<T>(this IServerStreamWriter<T> stream, BroadcastMessage<T> message, CancellationToken cancellationToken = default)
        where T : class, IMessage<T>
    {
        ArgumentNullException.ThrowIfNull(stream);
        ArgumentNullException.ThrowIfNull(message);
        if (stream is ResponseStreamWriter<T> ours)
        {
            return ours.WriteAsync(message, cancellationToken);
        }

        return stream.WriteAsync(message.Message, cancellationToken);
    }
}
