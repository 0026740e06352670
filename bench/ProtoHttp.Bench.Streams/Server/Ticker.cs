using System.Collections.Concurrent;
using System.Threading.Channels;
using Microsoft.AspNetCore.SignalR;
using Microsoft.Extensions.Hosting;
using ProtoHttp.AspNetCore;

namespace ProtoHttp.Bench.Streams.Server;

/// <summary>
/// W5's one publisher: at each interval one tick, stamped with the monotonic clock, handed to every stream subscriber
/// (ProtoHttp and gRPC, a bounded channel each, as the sample's price ticker does) and broadcast to every SignalR client.
/// Neither path waits for a slow subscriber: a full channel drops its oldest tick (the subscriber sees the gap in the
/// sequence), and the broadcast is not awaited, so SignalR queues per connection as it would in an app.
/// </summary>
public sealed class Ticker(IHubContext<PushHub> hub, TimeSpan interval) : BackgroundService
{
    private const int SubscriberBacklog = 1024;

    private readonly ConcurrentDictionary<Channel<BroadcastMessage<Tick>>, byte> _subscribers = new();
    private long _sequence;
    private int _hubClients;
    private long _broadcastFaults;
    private PeriodicTimer? _timer;

    public long Published => Interlocked.Read(ref _sequence);

    public int StreamSubscribers => _subscribers.Count;

    public int HubClients => Volatile.Read(ref _hubClients);

    public long BroadcastFaults => Interlocked.Read(ref _broadcastFaults);

    /// <summary>
    /// Changes the interval of a running ticker: a W5 run subscribes everyone at a slow rate (a subscriber's response
    /// starts with its first tick), then measures at its own.
    /// </summary>
    public void SetInterval(TimeSpan value)
    {
        if (_timer is { } timer)
        {
            timer.Period = value;
        }
    }

    public void HubClientConnected() => Interlocked.Increment(ref _hubClients);

    public void HubClientDisconnected() => Interlocked.Decrement(ref _hubClients);

    public Subscription Subscribe()
    {
        var channel = Channel.CreateBounded<BroadcastMessage<Tick>>(new BoundedChannelOptions(SubscriberBacklog)
        {
            FullMode = BoundedChannelFullMode.DropOldest,
            SingleReader = true,
            SingleWriter = true,
        });
        _subscribers.TryAdd(channel, 0);
        return new Subscription(this, channel);
    }

    protected override async Task ExecuteAsync(CancellationToken stoppingToken)
    {
        if (interval <= TimeSpan.Zero)
        {
            return;
        }

        using var timer = new PeriodicTimer(interval);
        _timer = timer;
        try
        {
            while (await timer.WaitForNextTickAsync(stoppingToken))
            {
                var tick = new Tick
                {
                    Sequence = Interlocked.Increment(ref _sequence),
                    PublishedNs = StreamWorkload.NowNs(),
                    Notification = StreamWorkload.Notification,
                };
                // One BroadcastMessage for every stream: ProtoHttp serializes the tick once per framing, as SignalR's
                // Clients.All does once per protocol; Grpc.AspNetCore's writer serializes it per subscriber.
                var shared = new BroadcastMessage<Tick>(tick);
                foreach (var channel in _subscribers.Keys)
                {
                    channel.Writer.TryWrite(shared);
                }

                if (HubClients > 0)
                {
                    _ = BroadcastAsync(TickDto.From(tick));
                }
            }
        }
        catch (OperationCanceledException) when (stoppingToken.IsCancellationRequested)
        {
            // The host is stopping.
        }
    }

    private async Task BroadcastAsync(TickDto tick)
    {
        try
        {
            await hub.Clients.All.SendAsync("tick", tick);
        }
        catch (Exception)
        {
            Interlocked.Increment(ref _broadcastFaults);
        }
    }

    /// <summary>One stream subscriber's ticks.</summary>
    public sealed class Subscription(Ticker ticker, Channel<BroadcastMessage<Tick>> channel) : IDisposable
    {
        public ChannelReader<BroadcastMessage<Tick>> Ticks => channel.Reader;

        public void Dispose()
        {
            ticker._subscribers.TryRemove(channel, out _);
            channel.Writer.TryComplete();
        }
    }
}
