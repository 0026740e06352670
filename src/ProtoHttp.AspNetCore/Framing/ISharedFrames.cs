using Google.Protobuf;

namespace ProtoHttp.AspNetCore.Framing;

/// <summary>A message whose framed bytes are shared by the streams it is written to (<see cref="BroadcastMessage{T}"/>).</summary>
internal interface ISharedFrames
{
    IMessage Message { get; }

    /// <summary>The message's place in its topic's log, which framings that carry one write with it.</summary>
    TopicPosition? Position { get; }

    /// <summary>The message as <paramref name="writer"/> frames it with <paramref name="codec"/>, made on first use of that pair.</summary>
    ReadOnlyMemory<byte> FramedFor(StreamResponseWriter writer, IMessageCodec codec);
}
