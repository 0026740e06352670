using System.Buffers;
using System.Net.WebSockets;
using System.Runtime.CompilerServices;
using System.Threading.Channels;
using Google.Protobuf;
using Google.Protobuf.Reflection;
using Grpc.Core;
using Microsoft.AspNetCore.Http;
using ProtoHttp.AspNetCore.Internal;
using ProtoHttp.AspNetCore.Framing;
using ProtoHttp.AspNetCore.Pipeline;
using ProtoHttp.Streaming;

namespace ProtoHttp.AspNetCore.Protocols.WebSockets;

/// <summary>
/// One call's WebSocket (docs/protocol.md section 13): the handshake, made when the call first reads or writes; one
/// receive loop that turns each binary message into a request (one envelope per message, each at most the request
/// limit) until the client half-closes with an empty <c>0x02</c> envelope; sends, one at a time (the response writer's
/// lock); and the close once the end envelope went out. A client that closes or drops the socket before the call ended
/// has left: the request is aborted, and the call with it.
/// </summary>
internal sealed class WebSocketConnection(
    HttpContext context, string? subprotocol, IMessageReader codec, MessageDescriptor descriptor, CallSettings settings, bool singleRequest)
{
    // How long the client has to answer the server's close before the socket is dropped.
    private static readonly TimeSpan CloseTimeout = TimeSpan.FromSeconds(5);

    // One message waits for the service at most: a slow reader slows the client instead of filling memory.
    private readonly Channel<IMessage> _requests = Channel.CreateBounded<IMessage>(
        new BoundedChannelOptions(1) { SingleReader = true });

    private readonly Lock _gate = new();
    private readonly long _limit = settings.Options.MaxRequestBodySize;
    private Task<WebSocket>? _accepting;
    private Task? _receiving;
    private volatile bool _ending;
    private WebSocketCloseStatus _closeStatus = WebSocketCloseStatus.NormalClosure;

    /// <summary>What was wrong with what the client sent, if anything was: the client's fault, whatever the service made of it.</summary>
    public CallRejectedException? Fault { get; private set; }

    /// <summary>Reads the next request; <see langword="null"/> once the client half-closed.</summary>
    /// <exception cref="CallRejectedException">A message was not a well-formed request envelope, or over the limit.</exception>
    // Pooled: a call reads once per message, and the read usually waits for the client (W7 in docs/benchmarks.md).
    [AsyncMethodBuilder(typeof(PoolingAsyncValueTaskMethodBuilder<>))]
    public async ValueTask<IMessage?> ReadAsync(CancellationToken cancellationToken)
    {
        await AcceptAsync();
        var reader = _requests.Reader;
        while (await reader.WaitToReadAsync(cancellationToken))
        {
            if (reader.TryRead(out var message))
            {
                return message;
            }
        }

        return null;
    }

    /// <summary>The one request of a unary or server-streaming call: the client's first envelope.</summary>
    public async ValueTask<IMessage> ReadRequestAsync(CancellationToken cancellationToken) =>
        await ReadAsync(cancellationToken)
        ?? throw Reject(CallRejectedException.BadRequest("The client half-closed before sending its request; the first envelope of a unary or server-streaming call is its request."));

    /// <summary>Sends one binary message (one envelope).</summary>
    public async Task SendAsync(ReadOnlyMemory<byte> envelope, CancellationToken cancellationToken)
    {
        var socket = await AcceptAsync();
        try
        {
            await socket.SendAsync(envelope, WebSocketMessageType.Binary, endOfMessage: true, cancellationToken);
        }
        catch (WebSocketException ex)
        {
            // As a body write fails when the client is gone: the error funnel knows an IOException after an abort.
            throw new IOException("The WebSocket closed before the message was sent.", ex);
        }
    }

    /// <summary>Marks the call as ending: a close from the client from here on is its answer to the end, not its leaving.</summary>
    public void Ending() => _ending = true;

    /// <summary>
    /// Closes the socket after the end envelope: 1000, or 1009 when a request was over the limit (RFC 6455 section
    /// 7.4.1), then waits a while for the client's close, reading and dropping whatever it still sends.
    /// </summary>
    public async Task CloseAsync()
    {
        _ending = true;
        // A request the service never read frees the receive loop, which from here on drops what comes.
        _requests.Reader.TryRead(out _);
        var socket = await AcceptAsync();
        using var timeout = new CancellationTokenSource(CloseTimeout);
        try
        {
            if (socket.State is WebSocketState.Open or WebSocketState.CloseReceived)
            {
                await socket.CloseOutputAsync(_closeStatus, _closeStatus == WebSocketCloseStatus.NormalClosure ? null : Fault?.Message[..Math.Min(Fault.Message.Length, 120)], timeout.Token);
            }

            if (_receiving is { } receiving)
            {
                await receiving.WaitAsync(timeout.Token);
            }
        }
        catch (Exception ex) when (ex is OperationCanceledException or WebSocketException)
        {
            socket.Abort(); // The client did not answer the close in time, or is gone.
        }
    }

    /// <summary>Drops the socket unless it closed properly: the call is over.</summary>
    public void Dispose()
    {
        _ending = true; // The receive loop must not touch the request once the call is over.
        if (_accepting is { IsCompletedSuccessfully: true } accepting)
        {
            var socket = accepting.Result;
            if (socket.State != WebSocketState.Closed)
            {
                socket.Abort();
            }

            socket.Dispose();
        }
    }

    private Task<WebSocket> AcceptAsync()
    {
        lock (_gate)
        {
            return _accepting ??= AcceptCoreAsync();
        }
    }

    private async Task<WebSocket> AcceptCoreAsync()
    {
        var socket = await context.WebSockets.AcceptWebSocketAsync(new WebSocketAcceptContext
        {
            SubProtocol = subprotocol,
            // Keep-alive frames at the streams' interval, so proxies keep an idle call open (docs/protocol.md section 9).
            KeepAliveInterval = settings.Options.StreamKeepAliveInterval,
        });
        _receiving = ReceiveAsync(socket);
        return socket;
    }

    private async Task ReceiveAsync(WebSocket socket)
    {
        byte[]? buffer = null;
        // Past the half-close, a fault or a unary call's request, messages are read only to see the close.
        var dropping = false;
        try
        {
            while (true)
            {
                // A zero-byte receive waits for the next message holding no buffer: an idle call keeps none (W7 in
                // docs/benchmarks.md: 1,000 open calls each held a 4 KB array here, as the pool cannot cache that many).
                var result = await socket.ReceiveAsync(Memory<byte>.Empty, CancellationToken.None);
                if (result.MessageType == WebSocketMessageType.Close)
                {
                    Closed();
                    return;
                }

                buffer = ArrayPool<byte>.Shared.Rent(4096);
                var length = 0;
                while (!result.EndOfMessage)
                {
                    if (length == buffer.Length)
                    {
                        buffer = Grow(buffer, length);
                    }

                    result = await socket.ReceiveAsync(buffer.AsMemory(dropping ? 0 : length), CancellationToken.None);
                    if (result.MessageType == WebSocketMessageType.Close)
                    {
                        Closed();
                        return;
                    }

                    if (!dropping)
                    {
                        length += result.Count;
                        if (length > Envelope.HeaderLength + _limit)
                        {
                            Fail(new CallRejectedException(StatusCodes.Status413PayloadTooLarge, StatusCode.ResourceExhausted,
                                $"A request message holds more than the limit of {_limit} bytes per message."), WebSocketCloseStatus.MessageTooBig);
                            dropping = true;
                        }
                    }
                }

                if (!dropping)
                {
                    dropping = await AcceptMessageAsync(buffer.AsMemory(0, length), result.MessageType);
                }

                ArrayPool<byte>.Shared.Return(buffer);
                buffer = null;
            }
        }
        catch (Exception ex) when (ex is WebSocketException or OperationCanceledException or ObjectDisposedException or IOException)
        {
            Closed();
        }
        finally
        {
            if (buffer is not null)
            {
                ArrayPool<byte>.Shared.Return(buffer);
            }
        }
    }

    /// <summary>Takes one whole message; returns whether the messages after it are only to be dropped.</summary>
    private async ValueTask<bool> AcceptMessageAsync(ReadOnlyMemory<byte> message, WebSocketMessageType type)
    {
        if (type != WebSocketMessageType.Binary)
        {
            Fail(CallRejectedException.BadRequest("A text message arrived; every message of a call is a binary one holding one envelope."));
            return true;
        }

        var bytes = new ReadOnlySequence<byte>(message);
        if (!Envelope.TryReadHeader(bytes, out var flags, out var length) || length != message.Length - Envelope.HeaderLength)
        {
            Fail(CallRejectedException.BadRequest(
                $"A message of {message.Length} bytes does not hold exactly one envelope (a 5-byte header whose length is the rest of the message)."));
            return true;
        }

        if ((flags & Envelope.EndStreamFlag) != 0)
        {
            _requests.Writer.TryComplete(); // The client's half-close.
            return true;
        }

        if (SingleEnvelope.CheckFlags(flags, compressionAgreed: false, EnvelopeRules.Plain) is { } fault)
        {
            Fail(fault);
            return true;
        }

        IMessage request;
        try
        {
            request = codec.Read(bytes.Slice(Envelope.HeaderLength), descriptor);
            settings.Codecs.CheckRequiredFields(request);
        }
        catch (InvalidMessageException ex)
        {
            Fail(CallRejectedException.BadRequest($"A request envelope does not hold a valid message: {ex.Message}"));
            return true;
        }

        await _requests.Writer.WriteAsync(request);
        return singleRequest || _ending;
    }

    /// <summary>The client closed or dropped the socket: after the end that is its answer; before it, the client left.</summary>
    private void Closed()
    {
        if (_ending)
        {
            _requests.Writer.TryComplete(ClientLeft());
            return;
        }

        // The request's token fires after the abort, on another thread; reads fail once it has, so the call's error
        // funnel sees a client that left (nobody to answer), not a fault of its own.
        var aborted = context.RequestAborted;
        context.Abort();
        aborted.UnsafeRegister(static state => ((WebSocketConnection)state!)._requests.Writer.TryComplete(ClientLeft()), this);
    }

    private static OperationCanceledException ClientLeft() => new("The client closed the WebSocket before the call ended.");

    private void Fail(CallRejectedException fault, WebSocketCloseStatus status = WebSocketCloseStatus.NormalClosure)
    {
        Reject(fault);
        _closeStatus = status;
        _requests.Writer.TryComplete(fault);
    }

    private CallRejectedException Reject(CallRejectedException fault)
    {
        Fault ??= fault;
        return fault;
    }

    private byte[] Grow(byte[] buffer, int length)
    {
        var larger = ArrayPool<byte>.Shared.Rent((int)Math.Min(buffer.Length * 2L, Envelope.HeaderLength + _limit + 1));
        buffer.AsSpan(0, length).CopyTo(larger);
        ArrayPool<byte>.Shared.Return(buffer);
        return larger;
    }
}
