namespace ProtoHttp.AspNetCore.Topics;

/// <summary>A topic on this instance whatever its message type: what <see cref="ProtoTopics"/> keeps and stops.</summary>
internal interface ITopicHub : IAsyncDisposable
{
    string Name { get; }

    Type MessageType { get; }

    void Wake();

    void Stop();
}
