using Grpc.Core;
using ProtoHttp.AspNetCore;

namespace ProtoHttp.Bench.Streams.Server;

/// <summary>The one service ProtoHttp and Grpc.AspNetCore both serve: W4's push and W5's subscription.</summary>
public sealed class PushBenchService(Ticker ticker) : PushService.PushServiceBase
{
    public override async Task Push(PushRequest request, IServerStreamWriter<Notification> responseStream, ServerCallContext context)
    {
        var notification = StreamWorkload.Notification;
        for (var i = 0; i < request.Count; i++)
        {
            await responseStream.WriteAsync(notification);
        }
    }

    // The ticker writes each tick to the stream itself (as SignalR's Clients.All does); the call lasts until the
    // subscriber leaves.
    public override Task Subscribe(SubscribeRequest request, IServerStreamWriter<Tick> responseStream, ServerCallContext context) =>
        ticker.SubscribeAsync(responseStream, context.CancellationToken);
}
