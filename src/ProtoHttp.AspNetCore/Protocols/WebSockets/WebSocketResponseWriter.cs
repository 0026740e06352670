using Google.Protobuf;
using Microsoft.AspNetCore.Http;
using ProtoHttp.AspNetCore.Internal;
using ProtoHttp.AspNetCore.Framing;
using ProtoHttp.Streaming;

namespace ProtoHttp.AspNetCore.Protocols.WebSockets;

/// <summary>
/// The answer of a call over WebSocket, whatever its kind (docs/protocol.md section 13): one binary message per envelope
/// in the subprotocol's codec, then the end envelope (flags <c>0x02</c>, Connect's end-stream JSON), then the close.
/// The handshake is the start of the answer, so nothing of an HTTP body's start applies. It owns the call's
/// <see cref="WebSocketConnection"/>, which the request side reads from, and disposes it with itself.
/// </summary>
internal sealed class WebSocketResponseWriter(HttpContext context, StreamMediaType type, WebSocketConnection connection)
    : StreamResponseWriter(context, type)
{
    private WebSocketConnection Connection { get; } = connection;

    protected override void Start()
    {
    }

    protected override async Task WriteMessageCoreAsync(IMessage message, CancellationToken cancellationToken)
    {
        using var frame = PooledBufferWriter.Rent(512);
        Envelope.WriteMessage(frame.Writer, message, Type.Codec);
        await Connection.SendAsync(frame.WrittenMemory, cancellationToken);
    }

    protected override async Task WriteEndCoreAsync(StreamOutcome outcome, CancellationToken cancellationToken)
    {
        Connection.Ending();
        using (var payload = PooledBufferWriter.Rent(256))
        using (var frame = PooledBufferWriter.Rent(256))
        {
            StreamEndRecord.WriteEnvelopeEnd(outcome, payload.Writer);
            Envelope.Write(frame.Writer, Envelope.EndStreamFlag, payload.WrittenMemory.Span);
            await Connection.SendAsync(frame.WrittenMemory, cancellationToken);
        }

        await Connection.CloseAsync();
    }

    protected override void OnDisposed() => Connection.Dispose();
}
