using System.Buffers;
using System.IO.Pipelines;
using Google.Protobuf;
using Microsoft.AspNetCore.Http;
using Microsoft.AspNetCore.Http.Features;
using ProtoHttp.AspNetCore.Internal;
using ProtoHttp.Streaming;

namespace ProtoHttp.AspNetCore.Framing;

/// <summary>
/// Writes a streaming call's response: its messages as they come, then the last record with the outcome and trailers
/// (docs/protocol.md section 10). Each write waits for the network to take it, so a slow reader slows the service instead of
/// filling memory. One write at a time: the service's writes, keep-alive comments and the last record never interleave.
/// The response (status 200, headers) starts with the first write; until then a failure can still answer as a unary
/// call does.
/// </summary>
internal abstract class StreamResponseWriter(HttpContext context, StreamMediaType type) : IAsyncDisposable
{
    private readonly SemaphoreSlim _lock = new(1, 1);
    private volatile bool _ended;

    public StreamMediaType Type { get; } = type;

    /// <summary>
    /// What of each message the stream carries, where a protocol answers with part of it (a REST rule's
    /// <c>response_body</c>, docs/protocol.md section 14); null: the message itself.
    /// </summary>
    public Func<IMessage, IMessage>? Part { get; set; }

    /// <summary>Whether anything went out: after that, a failure can only be told in the last record.</summary>
    public bool HasStarted => Response.HasStarted;

    protected HttpResponse Response => context.Response;

    public static StreamResponseWriter For(HttpContext context, StreamMediaType type, TimeSpan keepAliveInterval) => type.Format switch
    {
        StreamFormat.Events => new EventStreamWriter(context, type, type.Codec, keepAliveInterval),
        StreamFormat.Lines => new LineStreamWriter(context, type, type.Codec),
        _ => new EnvelopeStreamWriter(context, type, type.Codec) { WritesEventIds = context.Request.Headers.ContainsKey(Envelope.EventIdsHeader) },
    };

    /// <summary>Writes one message and waits until the network has taken it.</summary>
    /// <exception cref="InvalidOperationException">The call has already ended (its deadline passed, or it completed).</exception>
    public Task WriteMessageAsync(IMessage message, CancellationToken cancellationToken) => WriteMessageAsync(message, null, cancellationToken);

    /// <summary>Writes one message and waits until the network has taken it.</summary>
    /// <param name="message">The message.</param>
    /// <param name="shared">The message's shared frames when it is written to many streams: a writer whose framing can
    /// be shared (<see cref="SharedCodec"/>) writes the bytes made once for all of them.</param>
    /// <param name="cancellationToken">Cancels the wait for the lock and the flush.</param>
    /// <exception cref="InvalidOperationException">The call has already ended (its deadline passed, or it completed).</exception>
    public async Task WriteMessageAsync(IMessage message, ISharedFrames? shared, CancellationToken cancellationToken)
    {
        ArgumentNullException.ThrowIfNull(message);
        await _lock.WaitAsync(cancellationToken);
        try
        {
            if (_ended)
            {
                throw new InvalidOperationException("The call has ended; no more messages can be written to its response stream.");
            }

            Start();
            if (shared?.Position is { } position)
            {
                WritePosition(position, Response.BodyWriter);
            }

            if (shared is not null && SharedCodec is { } codec)
            {
                Response.BodyWriter.Write(shared.FramedFor(this, codec).Span);
                await FlushAsync(cancellationToken);
            }
            else
            {
                await WriteMessageCoreAsync(Part is null ? message : Part(message), cancellationToken);
            }

            OnWritten();
        }
        finally
        {
            _lock.Release();
        }
    }

    /// <summary>
    /// Tells the reader that messages after <paramref name="after"/> are gone from the topic's log, where the framing
    /// has a notice for it; false where it has none (the caller ends the stream saying it instead).
    /// </summary>
    public async Task<bool> WriteGapAsync(TopicPosition after, CancellationToken cancellationToken)
    {
        await _lock.WaitAsync(cancellationToken);
        try
        {
            if (_ended)
            {
                throw new InvalidOperationException("The call has ended; no more messages can be written to its response stream.");
            }

            // Framed aside first: a framing with no notice must leave the response unstarted, so the call's error can
            // still answer as a unary one would.
            using (var notice = PooledBufferWriter.Rent(128))
            {
                if (!FrameGap(after, notice.Writer))
                {
                    return false;
                }

                Start();
                Response.BodyWriter.Write(notice.WrittenMemory.Span);
            }

            await FlushAsync(cancellationToken);
            return true;
        }
        finally
        {
            _lock.Release();
        }
    }

    /// <summary>
    /// Writes the last record; or, for a failure when nothing went out yet, lets <paramref name="unstarted"/> answer as a
    /// unary call would. Later writes of the service (one that ignored its deadline) fail instead of following it.
    /// </summary>
    public async Task EndAsync(StreamOutcome outcome, Func<Task>? unstarted = null)
    {
        _ended = true;
        await StopKeepAliveAsync();
        await _lock.WaitAsync(context.RequestAborted);
        try
        {
            if (unstarted is not null && !Response.HasStarted)
            {
                await unstarted();
                return;
            }

            Start();
            await WriteEndCoreAsync(outcome, context.RequestAborted);
        }
        finally
        {
            _lock.Release();
        }
    }

    public async ValueTask DisposeAsync()
    {
        _ended = true;
        await StopKeepAliveAsync();
        if (_lock.Wait(0))
        {
            // Unless a write of a service that outlived its call still holds the lock: it keeps what it uses.
            try
            {
                OnDisposed();
            }
            finally
            {
                _lock.Release();
            }
        }
    }

    protected abstract Task WriteMessageCoreAsync(IMessage message, CancellationToken cancellationToken);

    /// <summary>
    /// The codec of a framing whose bytes for a message depend on nothing but the message, the writer's type and this
    /// codec, so that streams writing the same <see cref="BroadcastMessage{T}"/> can share them; <see langword="null"/>
    /// (the default): every message is framed by <see cref="WriteMessageCoreAsync"/>.
    /// </summary>
    protected internal virtual IMessageCodec? SharedCodec => null;

    /// <summary>
    /// Frames <paramref name="message"/> into <paramref name="output"/> exactly as <see cref="WriteMessageCoreAsync"/>
    /// writes it, with its topic position where the framing carries one (docs/protocol.md, "Topics: streams that
    /// resume"); needed when <see cref="SharedCodec"/> is set.
    /// </summary>
    protected internal virtual void Frame(IMessage message, TopicPosition? position, IBufferWriter<byte> output) =>
        throw new NotSupportedException(GetType().Name + " does not share frames.");

    /// <summary>
    /// Writes a topic message's position ahead of it, for a framing that carries it apart from the message's frame
    /// (docs/protocol.md, "Topics: streams that resume"); by default the frame carries it, or nothing does.
    /// </summary>
    protected virtual void WritePosition(TopicPosition position, IBufferWriter<byte> output)
    {
    }

    /// <summary>
    /// Frames the notice that messages after <paramref name="after"/> are no longer in the topic's log; false where
    /// the framing has no way to say it (docs/protocol.md, "Topics: streams that resume").
    /// </summary>
    protected virtual bool FrameGap(TopicPosition after, IBufferWriter<byte> output) => false;

    protected abstract Task WriteEndCoreAsync(StreamOutcome outcome, CancellationToken cancellationToken);

    /// <summary>Called after each message, under the lock.</summary>
    protected virtual void OnWritten()
    {
    }

    protected virtual Task StopKeepAliveAsync() => Task.CompletedTask;

    /// <summary>Called once the call is over, under the lock: releases what the writer held for the stream.</summary>
    protected virtual void OnDisposed()
    {
    }

    /// <summary>Writes <paramref name="write"/>'s output under the lock, unless a message or the end is being written.</summary>
    protected async Task<bool> TryWriteIdleAsync(Func<CancellationToken, Task> write)
    {
        if (_ended || !_lock.Wait(0))
        {
            return false;
        }

        try
        {
            if (_ended)
            {
                return false;
            }

            Start();
            await write(context.RequestAborted);
            return true;
        }
        finally
        {
            _lock.Release();
        }
    }

    /// <summary>
    /// Waits until the network has taken what was written; <paramref name="cancellationToken"/> (the deadline, the client
    /// leaving) ends the wait. It is never handed to the flush itself: Kestrel aborts the connection (HTTP/1.1) or resets
    /// the stream (HTTP/2) when a token cancels a flush, even one that would have completed at once, so a deadline that
    /// fired between two writes cost the client the well-formed end it is owed. A flush that has to wait is cancelled with
    /// <see cref="System.IO.Pipelines.PipeWriter.CancelPendingFlush"/> instead, which leaves the response open for the
    /// last record.
    /// </summary>
    protected async Task FlushAsync(CancellationToken cancellationToken)
    {
        var writer = Response.BodyWriter;
        for (var cancels = 0; ; cancels++)
        {
            cancellationToken.ThrowIfCancellationRequested();
            var flush = writer.FlushAsync(CancellationToken.None);
            FlushResult result;
            if (flush.IsCompleted)
            {
                result = flush.Result;
            }
            else
            {
                using var registration = cancellationToken.UnsafeRegister(static state => ((PipeWriter)state!).CancelPendingFlush(), writer);
                result = await flush;
            }

            if (!result.IsCanceled)
            {
                return;
            }

            cancellationToken.ThrowIfCancellationRequested();
            if (cancels > 0)
            {
                throw new OperationCanceledException("The response stream's flush was canceled.");
            }

            // Not this flush's token: an earlier write's deadline fired just as that write's flush completed, before
            // it removed its registration, and a pipe keeps a cancel that found no flush waiting for the next flush.
            // What this write put in the pipe is still there: wait for it once more, or the end record's write would
            // fail after the record was written (an error for the call, the connection aborted).
        }
    }

    /// <summary>
    /// Starts the response, under the lock, before anything is written: status 200, the stream's type, no caching or
    /// buffering. A framing that is not an HTTP body (a WebSocket's, whose handshake is its start) does otherwise.
    /// </summary>
    protected virtual void Start()
    {
        if (Response.HasStarted)
        {
            return;
        }

        Response.StatusCode = StatusCodes.Status200OK;
        Response.ContentType = Type.ContentType;
        // A stream is never the same twice, and every message must leave at once, not when some buffer fills.
        Response.Headers.CacheControl = "no-cache";
        context.Features.Get<IHttpResponseBodyFeature>()?.DisableBuffering();
    }
}
