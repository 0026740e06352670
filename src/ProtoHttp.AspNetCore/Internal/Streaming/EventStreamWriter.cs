using System.Buffers;
using System.Net.ServerSentEvents;
using System.Text;
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
    private readonly Action<SseItem<IMessage>, IBufferWriter<byte>> _formatMessage;
    private readonly PeriodicTimer? _keepAliveTimer;
    private readonly Task _keepAlive = Task.CompletedTask;
    private volatile bool _wroteSinceTick;

    public EventStreamWriter(HttpContext context, StreamMediaType type, IMessageCodec json, TimeSpan keepAliveInterval)
        : base(context, type)
    {
        _json = json;
        _formatMessage = (item, output) => _json.Write(item.Data, output);
        if (keepAliveInterval > TimeSpan.Zero && keepAliveInterval != Timeout.InfiniteTimeSpan)
        {
            _keepAliveTimer = new PeriodicTimer(keepAliveInterval);
            _keepAlive = KeepAliveAsync(_keepAliveTimer);
        }
    }

    protected override Task WriteMessageCoreAsync(IMessage message, CancellationToken cancellationToken) =>
        SseFormatter.WriteAsync(new[] { new SseItem<IMessage>(message) }.ToAsyncEnumerable(), Response.Body, _formatMessage, cancellationToken);

    protected override async Task WriteEndCoreAsync(StreamOutcome outcome, CancellationToken cancellationToken)
    {
        using var data = new PooledBufferWriter(256);
        StreamEndRecord.WriteEventData(outcome, data);
        var end = new SseItem<string>(Encoding.UTF8.GetString(data.WrittenMemory.Span), EndEventType);
        await SseFormatter.WriteAsync(new[] { end }.ToAsyncEnumerable(), Response.Body, cancellationToken);
        await FlushAsync(cancellationToken);
    }

    protected override void OnWritten() => _wroteSinceTick = true;

    protected override async Task StopKeepAliveAsync()
    {
        _keepAliveTimer?.Dispose();
        await _keepAlive;
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
