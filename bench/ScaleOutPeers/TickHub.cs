using Microsoft.AspNetCore.SignalR;

namespace ScaleOutPeers;

/// <summary>SignalR's side of W6: every connected client gets the <c>tick</c> broadcast, through the Redis backplane.</summary>
public sealed class TickHub(Subscribers subscribers) : Hub
{
    public override Task OnConnectedAsync()
    {
        subscribers.Joined();
        return Task.CompletedTask;
    }

    public override Task OnDisconnectedAsync(Exception? exception)
    {
        subscribers.Left();
        return Task.CompletedTask;
    }
}
