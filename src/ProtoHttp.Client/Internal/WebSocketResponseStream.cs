using System.Net.WebSockets;

namespace ProtoHttp.Client.Internal;

/// <summary>
/// The answer of a call over WebSocket as the stream of envelopes a <see cref="Framing.ResponseEnvelopeReader"/> reads: the
/// bytes of the binary messages in order (one envelope each), ended by the server's close.
/// </summary>
internal sealed class WebSocketResponseStream(WebSocket socket) : ReadOnlyStream
{
    public override async ValueTask<int> ReadAsync(Memory<byte> buffer, CancellationToken cancellationToken = default)
    {
        while (true)
        {
            if (socket.State is not (WebSocketState.Open or WebSocketState.CloseSent))
            {
                return 0;
            }

            var result = await socket.ReceiveAsync(buffer, cancellationToken).ConfigureAwait(false);
            switch (result.MessageType)
            {
                case WebSocketMessageType.Close:
                    return 0;
                case WebSocketMessageType.Text:
                    throw new IOException("The server sent a text message; every message of a call is a binary one holding one envelope.");
                default:
                    if (result.Count > 0 || buffer.IsEmpty)
                    {
                        return result.Count;
                    }

                    break; // An empty frame: read on.
            }
        }
    }
}
