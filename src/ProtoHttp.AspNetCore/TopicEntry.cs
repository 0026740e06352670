namespace ProtoHttp.AspNetCore;

/// <summary>One message of a topic's log: where it sits, and the message serialized as protobuf.</summary>
/// <param name="position">Its place in the log.</param>
/// <param name="payload">The message's protobuf bytes.</param>
public readonly struct TopicEntry(TopicPosition position, ReadOnlyMemory<byte> payload)
{
    /// <summary>Its place in the log.</summary>
    public TopicPosition Position { get; } = position;

    /// <summary>The message's protobuf bytes.</summary>
    public ReadOnlyMemory<byte> Payload { get; } = payload;
}
