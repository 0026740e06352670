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

    public override async Task Subscribe(SubscribeRequest request, IServerStreamWriter<Tick> responseStream, ServerCallContext context)
    {
        using var subscription = ticker.Subscribe();
        try
        {
            await foreach (var tick in subscription.Ticks.ReadAllAsync(context.CancellationToken))
            {
                await responseStream.WriteAsync(tick);
            }
        }
        catch (OperationCanceledException) when (context.CancellationToken.IsCancellationRequested)
        {
            // The subscriber left.
        }
    }
}
