using StackExchange.Redis;

namespace ProtoHttp.AspNetCore.Redis;

/// <summary>
/// The Redis names of one topic: its stream, the marker of the newest entry trimmed from it, and the channel that hints
/// at appends. The topic's name is a hash tag, so the three sit on one Redis Cluster slot and one script can use them.
/// </summary>
internal sealed class RedisTopicKeys(string prefix, string topic)
{
    public RedisKey Stream { get; } = $"{prefix}{{{topic}}}";

    public RedisKey Trimmed { get; } = $"{prefix}{{{topic}}}:trimmed";

    public RedisChannel Appended { get; } = RedisChannel.Literal($"{prefix}{{{topic}}}:appended");
}
