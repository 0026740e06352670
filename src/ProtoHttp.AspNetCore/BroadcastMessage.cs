using Google.Protobuf;
using ProtoHttp.AspNetCore.Framing;

namespace ProtoHttp.AspNetCore;

/// <summary>
/// A message written to many response streams, as a ticker's tick is to all its subscribers: each stream framing
/// (an event, a line, an envelope, per codec) is serialized once, on the first stream that needs it, and the same bytes
/// go to every other stream of that framing. Write it with
/// <see cref="ServerStreamWriterExtensions.WriteAsync{T}(Grpc.Core.IServerStreamWriter{T}, BroadcastMessage{T}, CancellationToken)"/>;
/// where the stream is not ProtoHttp's (gRPC, or an interceptor's own writer) the message is written as usual.
/// </summary>
/// <remarks>
/// The message must not change once it is wrapped: streams that write it later send the bytes made earlier. Safe to
/// write from many streams at once; two streams that frame it at the same moment may both serialize it, and one of the
/// two results is kept.
/// </remarks>
/// <typeparam name="T">The message type.</typeparam>
public sealed class BroadcastMessage<T> : ISharedFrames
    where T : class, IMessage<T>
{
    private Framed[] _framed = [];

    /// <summary>Wraps <paramref name="message"/>, which must not change afterwards.</summary>
    /// <param name="message">The message to write to many streams.</param>
    public BroadcastMessage(T message)
    {
        ArgumentNullException.ThrowIfNull(message);
        Message = message;
    }

    /// <summary>The message.</summary>
    public T Message { get; }

    /// <summary>The message's place in its topic's log, when it came from a <see cref="ProtoTopic{T}"/>.</summary>
    internal TopicPosition? Position { get; init; }

    IMessage ISharedFrames.Message => Message;

    TopicPosition? ISharedFrames.Position => Position;

    ReadOnlyMemory<byte> ISharedFrames.FramedFor(StreamResponseWriter writer, IMessageCodec codec)
    {
        var framing = writer.GetType();
        var framed = Volatile.Read(ref _framed);
        foreach (var entry in framed)
        {
            if (entry.Framing == framing && ReferenceEquals(entry.Codec, codec))
            {
                return entry.Bytes;
            }
        }

        byte[] bytes;
        using (var buffer = Internal.PooledBufferWriter.Rent(512))
        {
            writer.Frame(Message, Position, buffer.Writer);
            bytes = buffer.WrittenMemory.ToArray();
        }

        // Copy-on-write: readers never lock, and a framing made twice at once keeps whichever was added first.
        while (true)
        {
            foreach (var entry in framed)
            {
                if (entry.Framing == framing && ReferenceEquals(entry.Codec, codec))
                {
                    return entry.Bytes;
                }
            }

            Framed[] larger = [.. framed, new Framed(framing, codec, bytes)];
            var seen = Interlocked.CompareExchange(ref _framed, larger, framed);
            if (ReferenceEquals(seen, framed))
            {
                return bytes;
            }

            framed = seen;
        }
    }

    private sealed record Framed(Type Framing, IMessageCodec Codec, byte[] Bytes);
}
