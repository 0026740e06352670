using Microsoft.AspNetCore.SignalR;

namespace ProtoHttp.Bench.Streams.Server;

/// <summary>A SignalR peer's hub that counts its connected clients in <paramref name="clients"/>, for the peer's <c>/stats</c>.</summary>
public abstract class CountedHub(Subscribers clients) : Hub
{
    public override Task OnConnectedAsync()
    {
        clients.Joined();
        return Task.CompletedTask;
    }

    public override Task OnDisconnectedAsync(Exception? exception)
    {
        clients.Left();
        return Task.CompletedTask;
    }
}
