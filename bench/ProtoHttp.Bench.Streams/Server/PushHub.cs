using System.Runtime.CompilerServices;

namespace ProtoHttp.Bench.Streams.Server;

/// <summary>
/// SignalR's side: <c>Push(count)</c> streams W4's notifications; every connected client is a W5 subscriber and gets
/// the ticker's <c>tick</c> broadcast (<c>Clients.All</c>, SignalR's own fan-out).
/// </summary>
public sealed class PushHub(Ticker ticker) : CountedHub(ticker.HubClients)
{
    public async IAsyncEnumerable<NotificationDto> Push(int count, [EnumeratorCancellation] CancellationToken cancellationToken)
    {
        var notification = StreamWorkload.NotificationDto;
        for (var i = 0; i < count && !cancellationToken.IsCancellationRequested; i++)
        {
            yield return notification;
        }

        await Task.CompletedTask;
    }
}
