using System.Buffers;
using System.Text;
using Google.Protobuf;
using Microsoft.AspNetCore.Http;
using ProtoHttp.AspNetCore.Internal;
using ProtoHttp.Streaming;

namespace ProtoHttp.AspNetCore.Framing;

/// <summary>
/// Server-Sent Events: one event of the default type per message, its canonical JSON as the data; last, an <c>end</c>
/// event with the outcome. While the stream is idle, a comment line goes out at the keep-alive interval.
/// </summary>
/// <remarks>
/// Each event is framed whole into a buffer rented for that write, then copied into the response under the writer's
/// lock, before the flush: a comment (written under the same lock) can only fall between two events, and an idle stream
/// holds no buffer. Events carry no <c>retry</c> field, and an <c>id</c> only when they come from a topic, so the framing is the three lines of the
/// HTML standard's event stream format written here, not .NET's <c>SseFormatter</c>, whose write loop would keep its
/// buffers for the stream's lifetime. A message's frame depends only on the message and the JSON codec, so a
/// <see cref="BroadcastMessage{T}"/> is framed once for every event stream it goes to.
/// </remarks>
internal sealed class EventStreamWriter : StreamResponseWriter, KeepAliveClock.IKeepAliveMember
{
    private static readonly ReadOnlyMemory<byte> KeepAliveComment = ":\n\n"u8.ToArray();

    private readonly IMessageCodec _json;
    private readonly KeepAliveClock? _keepAliveClock;
    private Task _keepAliveWrite = Task.CompletedTask;
    private volatile bool _wroteSinceTick;

    public EventStreamWriter(HttpContext context, StreamMediaType type, IMessageCodec json, TimeSpan keepAliveInterval)
        : base(context, type)
    {
        _json = json;
        if (keepAliveInterval > TimeSpan.Zero && keepAliveInterval != Timeout.InfiniteTimeSpan)
        {
            _keepAliveClock = KeepAliveClock.For(keepAliveInterval);
            _keepAliveClock.Join(this);
        }
    }

    protected internal override IMessageCodec SharedCodec => _json;

    protected internal override void Frame(IMessage message, TopicPosition? position, IBufferWriter<byte> output)
    {
        using var data = PooledBufferWriter.Rent(512);
        _json.Write(message, data.Writer);
        if (position is { } id)
        {
            // The event's id, which an EventSource sends back as Last-Event-ID when it reconnects (docs/protocol.md,
            // "Topics: streams that resume").
            output.Write("id: "u8);
            output.Write(Encoding.ASCII.GetBytes(id.ToString()));
            output.Write("\n"u8);
        }

        WriteEvent(output, default, data.WrittenMemory.Span);
    }

    protected override bool FrameGap(TopicPosition after, IBufferWriter<byte> output)
    {
        WriteEvent(output, "gap"u8, Encoding.ASCII.GetBytes($"{{\"lastEventId\":\"{after}\"}}"));
        return true;
    }

    protected override Task WriteMessageCoreAsync(IMessage message, CancellationToken cancellationToken)
    {
        cancellationToken.ThrowIfCancellationRequested();
        // The JSON is written whole before any of the event goes out: a message it cannot carry fails the write and
        // leaves nothing of the event in the response.
        using (var data = PooledBufferWriter.Rent(512))
        {
            _json.Write(message, data.Writer);
            WriteEvent(Response.BodyWriter, default, data.WrittenMemory.Span);
        }

        return FlushAsync(cancellationToken);
    }

    protected override Task WriteEndCoreAsync(StreamOutcome outcome, CancellationToken cancellationToken)
    {
        using (var data = PooledBufferWriter.Rent(256))
        {
            StreamEndRecord.WriteEventData(outcome, data.Writer);
            WriteEvent(Response.BodyWriter, "end"u8, data.WrittenMemory.Span);
        }

        return FlushAsync(cancellationToken);
    }

    protected override void OnWritten() => _wroteSinceTick = true;

    protected override Task StopKeepAliveAsync()
    {
        _keepAliveClock?.Leave(this);
        // A comment being written finishes before the call goes on to its end.
        return _keepAliveWrite;
    }

    void KeepAliveClock.IKeepAliveMember.OnKeepAliveTick()
    {
        if (_wroteSinceTick)
        {
            _wroteSinceTick = false;
            return;
        }

        if (_keepAliveWrite.IsCompleted)
        {
            _keepAliveWrite = WriteKeepAliveAsync();
        }
    }

    /// <summary>One event: its type unless it is the default, its data as <c>data:</c> lines, and the blank line that ends it.</summary>
    internal static void WriteEvent(IBufferWriter<byte> output, ReadOnlySpan<byte> eventType, ReadOnlySpan<byte> data)
    {
        if (!eventType.IsEmpty)
        {
            output.Write("event: "u8);
            output.Write(eventType);
            output.Write("\n"u8);
        }

        // Canonical JSON is one line (it escapes every control character), so this is one data line. A line break in
        // other data starts another data line, which the reader joins back with "\n", as the event stream format says.
        while (true)
        {
            output.Write("data: "u8);
            var lineBreak = data.IndexOfAny((byte)'\r', (byte)'\n');
            if (lineBreak < 0)
            {
                output.Write(data);
                break;
            }

            output.Write(data[..lineBreak]);
            output.Write("\n"u8);
            var next = lineBreak + (data[lineBreak] == '\r' && lineBreak + 1 < data.Length && data[lineBreak + 1] == '\n' ? 2 : 1);
            data = data[next..];
        }

        output.Write("\n\n"u8);
    }

    private async Task WriteKeepAliveAsync()
    {
        try
        {
            // Under the writer's lock, and only when no message or end is being written: the comment can only fall
            // between two events, however the writes of an event await.
            await TryWriteIdleAsync(async token =>
            {
                Response.BodyWriter.Write(KeepAliveComment.Span);
                await FlushAsync(token);
            });
        }
        catch (Exception ex) when (ex is OperationCanceledException or IOException or InvalidOperationException or ObjectDisposedException)
        {
            // The client went away (the call hears of it through its token) or the response completed meanwhile.
        }
    }
}
