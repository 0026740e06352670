using System.Threading.Channels;
using Google.Protobuf;

namespace ProtoHttp.AspNetCore.Topics;

/// <summary>
/// One subscriber's share of a topic's live feed: at most <see cref="ProtoTopicOptions.SubscriberBuffer"/> messages
/// waiting. One that falls further behind leaves the live feed (it is told by <see cref="Overflowed"/>) and catches up
/// from the log, so a slow reader never holds back the others nor grows the server's memory.
/// </summary>
internal sealed class TopicSubscriber<T>(int capacity)
    where T : class, IMessage<T>
{
    private readonly Channel<BroadcastMessage<T>> _messages = Channel.CreateBounded<BroadcastMessage<T>>(new BoundedChannelOptions(Math.Max(1, capacity))
    {
        FullMode = BoundedChannelFullMode.Wait,
        SingleReader = true,
        SingleWriter = true,
    });

    public ChannelReader<BroadcastMessage<T>> Messages => _messages.Reader;

    /// <summary>Whether the feed went on without this subscriber, which then reads the log from its last position.</summary>
    public bool Overflowed { get; private set; }

    /// <summary>Hands a message on; called by the topic's one reader, in the log's order.</summary>
    public void Offer(BroadcastMessage<T> message)
    {
        if (!_messages.Writer.TryWrite(message))
        {
            Overflowed = true;
            _messages.Writer.TryComplete();
        }
    }

    /// <summary>No more messages: the topic stopped (the app is stopping).</summary>
    public void Complete() => _messages.Writer.TryComplete();
}
