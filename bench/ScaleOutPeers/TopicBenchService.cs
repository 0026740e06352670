using Grpc.Core;
using ProtoHttp.AspNetCore;
using ProtoHttp.Bench.Streams;
using ProtoHttp.Bench.Streams.Server;

namespace ScaleOutPeers;

/// <summary>ProtoHttp's side of W6: every subscriber reads the topic, resuming after its <c>Last-Event-ID</c>.</summary>
public sealed class TopicBenchService(IProtoTopics topics, Subscribers subscribers) : TopicService.TopicServiceBase
{
    public const string TopicName = "ticks";

    public override async Task Watch(WatchRequest request, IServerStreamWriter<Tick> responseStream, ServerCallContext context)
    {
        subscribers.Joined();
        try
        {
            await topics.Topic<Tick>(TopicName).SubscribeAsync(responseStream, context);
        }
        finally
        {
            subscribers.Left();
        }
    }
}
