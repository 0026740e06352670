using System.Buffers;
using System.Collections.Concurrent;
using System.IO.Pipelines;
using Grpc.Core;
using Microsoft.AspNetCore.Http;
using Microsoft.AspNetCore.SignalR;
using Microsoft.Extensions.Hosting;
using ProtoHttp.AspNetCore;

namespace ProtoHttp.Bench.Streams.Server;

/// <summary>
/// W5's one publisher: at each interval one tick, stamped with the monotonic clock, written to every stream subscriber
/// (ProtoHttp and gRPC) and broadcast to every SignalR client. Both fan out as SignalR's <c>Clients.All</c> does: the
/// publisher starts each subscriber's write itself, with no queue and no reader loop per subscriber, and waits for none
/// of them. A subscriber whose last write is still in flight keeps only the newest tick waiting (it sees the gap in
/// the sequence); SignalR queues per connection instead, as it would in an app.
/// </summary>
public sealed class Ticker(IHubContext<PushHub> hub, TimeSpan interval) : BackgroundService
{
    private readonly ConcurrentDictionary<Subscriber, byte> _subscribers = new();
    private long _sequence;
    private long _broadcastFaults;
    private PeriodicTimer? _timer;

    public long Published => Interlocked.Read(ref _sequence);

    public int StreamSubscribers => _subscribers.Count;

    /// <summary>The SignalR clients connected to <see cref="PushHub"/>: each gets the tick's broadcast.</summary>
    public Subscribers HubClients { get; } = new();

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

    /// <summary>
    /// Writes every tick to <paramref name="stream"/> until <paramref name="cancellationToken"/> fires (the subscriber
    /// left) or a write fails; the task completes then.
    /// </summary>
    public Task SubscribeAsync(IServerStreamWriter<Tick> stream, CancellationToken cancellationToken) =>
        Add(new StreamSubscriber(this, stream, cancellationToken));

    /// <summary>
    /// The floor: writes every tick to <paramref name="response"/> as the event ProtoHttp sends for it
    /// (<c>data: {json}</c> and a blank line, <c>text/event-stream</c>), with Kestrel alone, until the client leaves.
    /// </summary>
    public Task SubscribeEventsAsync(HttpResponse response, CancellationToken cancellationToken)
    {
        response.ContentType = "text/event-stream";
        response.Headers.CacheControl = "no-cache";
        return Add(new EventSubscriber(this, response.BodyWriter, cancellationToken));
    }

    private Task Add(Subscriber subscriber)
    {
        _subscribers.TryAdd(subscriber, 0);
        subscriber.Listen();
        return subscriber.Task;
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
                var shared = new TickFrames(new BroadcastMessage<Tick>(tick));
                foreach (var subscriber in _subscribers.Keys)
                {
                    subscriber.Offer(shared);
                }

                if (HubClients.Count > 0)
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

    /// <summary>
    /// One tick as every kind of subscriber takes it: the message for the service's streams, and its raw event, made on
    /// first use, once for all the raw subscribers.
    /// </summary>
    private sealed class TickFrames(BroadcastMessage<Tick> shared)
    {
        // ProtoHttp's JSON codec makes the bytes its event streams send; it runs once per tick, not per subscriber.
        private static readonly MessageCodec Json = new MessageCodecs(new FormatOptions()).Codec(CodecNames.Json);
        private byte[]? _event;

        public BroadcastMessage<Tick> Shared => shared;

        public byte[] Event => _event ??= FrameEvent(shared.Message);

        private static byte[] FrameEvent(Tick tick)
        {
            var buffer = new ArrayBufferWriter<byte>(512);
            buffer.Write("data: "u8);
            Json.Write(tick, buffer);
            buffer.Write("\n\n"u8);
            return buffer.WrittenSpan.ToArray();
        }
    }

    /// <summary>
    /// One subscriber: the one tick waiting while a write is in flight, and the task its service method (or endpoint)
    /// returns (the subscriber is that task's source, one object less per subscriber). Each kind writes a tick its way.
    /// </summary>
    private abstract class Subscriber(Ticker ticker, CancellationToken cancellationToken)
        : TaskCompletionSource(TaskCreationOptions.RunContinuationsAsynchronously)
    {
        private TickFrames? _waiting;
        private int _writing;
        private CancellationTokenRegistration _registration;

        public void Listen() =>
            _registration = cancellationToken.UnsafeRegister(static state => ((Subscriber)state!).Leave(null), this);

        /// <summary>Writes <paramref name="tick"/> now, or after the write in flight (replacing any tick waiting).</summary>
        public void Offer(TickFrames tick)
        {
            Volatile.Write(ref _waiting, tick);
            if (Interlocked.CompareExchange(ref _writing, 1, 0) == 0)
            {
                WriteWaiting();
            }
        }

        // Runs while this subscriber holds _writing: one write at a time, as every IServerStreamWriter requires.
        private void WriteWaiting()
        {
            while (true)
            {
                var next = Interlocked.Exchange(ref _waiting, null);
                if (next is null)
                {
                    Volatile.Write(ref _writing, 0);
                    // A tick offered between the exchange and the release would wait for the next one: take it now.
                    if (Volatile.Read(ref _waiting) is null || Interlocked.CompareExchange(ref _writing, 1, 0) != 0)
                    {
                        return;
                    }

                    continue;
                }

                Task write;
                try
                {
                    write = WriteAsync(next);
                }
                catch (Exception ex)
                {
                    Leave(ex);
                    return;
                }

                if (!write.IsCompletedSuccessfully)
                {
                    write.ContinueWith(static (task, state) => ((Subscriber)state!).Written(task), this, CancellationToken.None,
                        TaskContinuationOptions.None, TaskScheduler.Default);
                    return;
                }
            }
        }

        /// <summary>Writes one tick; the task completes when it is on its way (or fails if the subscriber is gone).</summary>
        protected abstract Task WriteAsync(TickFrames tick);

        private void Written(Task write)
        {
            if (!write.IsCompletedSuccessfully)
            {
                Leave(write.Exception?.InnerException ?? new OperationCanceledException());
                return;
            }

            WriteWaiting();
        }

        private void Leave(Exception? error)
        {
            ticker._subscribers.TryRemove(this, out _);
            _registration.Dispose();
            if (error is null || cancellationToken.IsCancellationRequested)
            {
                // The subscriber left; a write that failed because it left is no error of the service.
                TrySetResult();
            }
            else
            {
                TrySetException(error);
            }
        }
    }

    /// <summary>A ProtoHttp or gRPC stream: the service's response stream.</summary>
    private sealed class StreamSubscriber(Ticker ticker, IServerStreamWriter<Tick> stream, CancellationToken cancellationToken)
        : Subscriber(ticker, cancellationToken)
    {
        protected override Task WriteAsync(TickFrames tick) => stream.WriteAsync(tick.Shared);
    }

    /// <summary>The floor: the tick's event bytes copied into a Kestrel response and flushed, nothing else.</summary>
    private sealed class EventSubscriber(Ticker ticker, PipeWriter body, CancellationToken cancellationToken)
        : Subscriber(ticker, cancellationToken)
    {
        protected override Task WriteAsync(TickFrames tick)
        {
            body.Write(tick.Event);
            var flush = body.FlushAsync(CancellationToken.None);
            return flush.IsCompletedSuccessfully ? Flushed(flush.Result) : AwaitFlushAsync(flush);
        }

        private static Task Flushed(FlushResult result) =>
            result.IsCompleted || result.IsCanceled ? Task.FromException(new IOException("The subscriber left.")) : Task.CompletedTask;

        private static async Task AwaitFlushAsync(ValueTask<FlushResult> flush) => await Flushed(await flush);
    }
}
