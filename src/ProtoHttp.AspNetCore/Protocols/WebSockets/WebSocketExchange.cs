using Google.Protobuf;
using Grpc.Core;
using ProtoHttp.AspNetCore.Framing;
using ProtoHttp.AspNetCore.Pipeline;
using ProtoHttp.Streaming;

namespace ProtoHttp.AspNetCore.Protocols.WebSockets;

/// <summary>
/// A call over WebSocket (docs/protocol.md section 13), whatever its kind: the call's socket
/// (<see cref="WebSocketConnection"/>), from which the request message or stream is read, and its writer, which owns
/// the socket and opens when the call is accepted, so every later outcome is told in the end envelope.
/// </summary>
internal sealed class WebSocketExchange : StreamExchange
{
    private readonly WebSocketConnection _connection;

    /// <param name="call">The accepted call.</param>
    /// <param name="type">The subprotocol's envelopes.</param>
    /// <param name="connection">The call's socket, once the handshake is made.</param>
    public WebSocketExchange(ProtoHttpServerCallContext call, StreamMediaType type, WebSocketConnection connection)
        : base(type, type.Codec)
    {
        _connection = connection;
        OpenResponseStream(call);
    }

    public override ValueTask<IMessage> ReadMessageAsync(ProtoHttpServerCallContext call, CancellationToken cancellationToken) =>
        _connection.ReadRequestAsync(cancellationToken);

    /// <summary>
    /// Before the handshake the service's headers go out with it; after it (the usual case: the request comes over the
    /// socket) there are no more HTTP headers to send, and they travel in the end envelope's metadata beside the trailers.
    /// </summary>
    public override void WriteResponseHeaders(ProtoHttpServerCallContext call, Metadata headers)
    {
        if (!call.HttpContext.Response.HasStarted)
        {
            base.WriteResponseHeaders(call, headers);
            return;
        }

        foreach (var entry in headers)
        {
            call.ResponseTrailers.Add(entry);
        }
    }

    protected override StreamResponseWriter CreateResponseStream(ProtoHttpServerCallContext call) =>
        new WebSocketResponseWriter(call.HttpContext, ResponseStreamType, _connection);

    protected override IRequestStream CreateRequestStream<TRequest>(ProtoHttpServerCallContext call) =>
        new WebSocketRequestStream<TRequest>(_connection, call.CancellationToken);

    /// <summary>Once accepted, every failure is told in the end envelope, over the socket.</summary>
    protected override Task EndFailedStreamAsync(ProtoHttpServerCallContext call, StreamResponseWriter stream, CallFailure failure) =>
        stream.EndAsync(new StreamOutcome(failure.Code, failure.Text, failure.Trailers));
}
