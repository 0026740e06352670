using System.Net.WebSockets;

namespace ProtoHttp.Client.Internal;

/// <summary>
/// The answer of a call over WebSocket as the stream of envelopes a <see cref="Framing.ResponseEnvelopeReader"/> reads: the
/// bytes of the binary messages in order (one envelope each), ended by the server's close.
/// </summary>
internal sealed class WebSocketResponseStream(WebSocket socket) : Stream
{
    public override bool CanRead => true;

    public override bool CanSeek => false;

    public override bool CanWrite => false;

    public override long Length => throw new NotSupportedException();

    public override long Position { get => throw new NotSupportedException(); set => throw new NotSupportedException(); }

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

    public override Task<int> ReadAsync(byte[] buffer, int offset, int count, CancellationToken cancellationToken) =>
        ReadAsync(buffer.AsMemory(offset, count), cancellationToken).AsTask();

    public override int Read(byte[] buffer, int offset, int count) => ReadAsync(buffer, offset, count).GetAwaiter().GetResult();

    public override void Flush()
    {
    }

    public override long Seek(long offset, SeekOrigin origin) => throw new NotSupportedException();

    public override void SetLength(long value) => throw new NotSupportedException();

    public override void Write(byte[] buffer, int offset, int count) => throw new NotSupportedException();
}
