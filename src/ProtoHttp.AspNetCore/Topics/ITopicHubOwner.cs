namespace ProtoHttp.AspNetCore.Topics;

/// <summary>What <see cref="ProtoTopics"/> needs of a <see cref="ProtoTopic{T}"/> whatever its message type.</summary>
internal interface ITopicHubOwner
{
    ITopicHub Hub { get; }
}
