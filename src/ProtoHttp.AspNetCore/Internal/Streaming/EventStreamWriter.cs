using System.Buffers;
using System.Net.ServerSentEvents;
using Google.Protobuf;
using Microsoft.AspNetCore.Http;
using ProtoHttp.Streaming;

namespace ProtoHttp.AspNetCore.Internal.Streaming;

/// <summary>
/// Server-Sent Events, framed by .NET's <see cref="SseFormatter"/>: one event of the default type per message, its
/// canonical JSON as the data; last, an <c>end</c> event with the outcome. While the stream is idle, a comment line goes
/// out at the keep-alive interval.
/// </summary>
internal sealed class EventStreamWriter : StreamResponseWriter
{
    public const string EndEventType = "end";

    // SseFormatter writes events only; a comment line (RFC: a line starting with a colon) is the one piece of framing it
    // has no API for, and the bytes are fixed.
    private static readonly ReadOnlyMemory<byte> KeepAliveComment = ":\n\n"u8.ToArray();

    private readonly IMessageCodec _json;
    private readonly Action<SseItem<IMessage?>, IBufferWriter<byte>> _formatItem;
    private readonly EventFeed<IMessage?> _feed = new();
    private readonly PeriodicTimer? _keepAliveTimer;
    private readonly Task _keepAlive = Task.CompletedTask;
    private volatile bool _wroteSinceTick;
    private Task? _formatting;
    private StreamOutcome _outcome = StreamOutcome.Ok(null);

    public EventStreamWriter(HttpContext context, StreamMediaType type, IMessageCodec json, TimeSpan keepAliveInterval)
        : base(context, type)
    {
        _json = json;
        // A message's JSON goes straight into the formatter's buffer; the end event (no message) carries the outcome.
        _formatItem = (item, output) =>
        {
            if (item.Data is { } message)
            {
                _json.Write(message, output);
            }
            else
            {
                StreamEndRecord.WriteEventData(_outcome, output);
            }
        };
        if (keepAliveInterval > TimeSpan.Zero && keepAliveInterval != Timeout.InfiniteTimeSpan)
        {
            _keepAliveTimer = new PeriodicTimer(keepAliveInterval);
            _keepAlive = KeepAliveAsync(_keepAliveTimer);
        }
    }

    protected override Task WriteMessageCoreAsync(IMessage message, CancellationToken cancellationToken)
    {
        cancellationToken.ThrowIfCancellationRequested();
        Put(new SseItem<IMessage?>(message));
        return FlushAsync(cancellationToken);
    }

    protected override Task WriteEndCoreAsync(StreamOutcome outcome, CancellationToken cancellationToken)
    {
        _outcome = outcome;
        Put(new SseItem<IMessage?>(null, EndEventType));
        _feed.Complete();
        return FlushAsync(cancellationToken);
    }

    protected override void OnDisposed() => _feed.Complete();

    protected override void OnWritten() => _wroteSinceTick = true;

    protected override async Task StopKeepAliveAsync()
    {
        _keepAliveTimer?.Dispose();
        await _keepAlive;
    }

    // One SseFormatter write per stream, not per message: its buffers and state are set up once, and each event costs
    // only its formatting. Put returns once the event is framed and in the response (see EventFeed).
    private void Put(SseItem<IMessage?> item)
    {
        if (!_feed.IsWaiting)
        {
            _formatting = SseFormatter.WriteAsync(_feed, new BufferedBodyStream(Response.BodyWriter), _formatItem, CancellationToken.None);
        }

        if (!_feed.TryPut(item))
        {
            // The formatter failed on this event (its JSON could not be written) and wrote none of it; the next event
            // starts a new formatter.
            if (_formatting is { IsCompleted: true } failed)
            {
                failed.GetAwaiter().GetResult();
            }

            throw new InvalidOperationException("SseFormatter did not write the event.");
        }
    }

    private async Task KeepAliveAsync(PeriodicTimer timer)
    {
        try
        {
            while (await timer.WaitForNextTickAsync())
            {
                if (_wroteSinceTick)
                {
                    _wroteSinceTick = false;
                    continue;
                }

                await TryWriteIdleAsync(async token =>
                {
                    await Response.BodyWriter.WriteAsync(KeepAliveComment, token);
                    await FlushAsync(token);
                });
            }
        }
        catch (Exception ex) when (ex is OperationCanceledException or IOException or InvalidOperationException)
        {
            // The client went away (the call hears of it through its token) or the response completed meanwhile.
        }
    }
}
