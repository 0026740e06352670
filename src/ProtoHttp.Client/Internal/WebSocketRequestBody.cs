using System.Buffers.Binary;
using System.Net.WebSockets;
using ProtoHttp.Streaming;

namespace ProtoHttp.Client.Internal;

/// <summary>
/// The requests of a client-streaming or bidirectional call over WebSocket (docs/protocol.md section 13): the envelopes
/// the <see cref="RequestStreamWriter{TRequest}"/> writes go out one binary message each, and completing sends the
/// half-close, an empty envelope with flags <c>0x02</c>. The stream is ready once the handshake is done.
/// </summary>
internal sealed class WebSocketRequestBody : IRequestBody
{
    private static readonly byte[] HalfClose = [Envelope.EndStreamFlag, 0, 0, 0, 0];

    private readonly TaskCompletionSource<Stream> _stream = new(TaskCreationOptions.RunContinuationsAsynchronously);
    private WebSocket? _socket;

    public Task<Stream> Stream => _stream.Task;

    /// <summary>The handshake is done: envelopes may go out.</summary>
    public void Open(WebSocket socket)
    {
        _socket = socket;
        _stream.TrySetResult(new EnvelopeMessages(socket));
    }

    public async Task CompleteAsync()
    {
        if (_socket is not { State: WebSocketState.Open } socket)
        {
            return; // The call ended first; its outcome says how.
        }

        try
        {
            await socket.SendAsync(HalfClose, WebSocketMessageType.Binary, endOfMessage: true, CancellationToken.None).ConfigureAwait(false);
        }
        catch (WebSocketException)
        {
            // The socket closed meanwhile; the response tells the call's outcome.
        }
    }

    public void Abort() => _stream.TrySetCanceled();

    /// <summary>A write-only stream that sends each whole envelope written to it as one binary message.</summary>
    private sealed class EnvelopeMessages(WebSocket socket) : Stream
    {
        private byte[] _pending = new byte[256];
        private int _length;

        public override bool CanRead => false;

        public override bool CanSeek => false;

        public override bool CanWrite => true;

        public override long Length => throw new NotSupportedException();

        public override long Position { get => throw new NotSupportedException(); set => throw new NotSupportedException(); }

        public override async ValueTask WriteAsync(ReadOnlyMemory<byte> buffer, CancellationToken cancellationToken = default)
        {
            if (_pending.Length < _length + buffer.Length)
            {
                Array.Resize(ref _pending, Math.Max(_pending.Length * 2, _length + buffer.Length));
            }

            buffer.CopyTo(_pending.AsMemory(_length));
            _length += buffer.Length;
            var sent = 0;
            while (_length - sent >= Envelope.HeaderLength)
            {
                var size = Envelope.HeaderLength + (int)BinaryPrimitives.ReadUInt32BigEndian(_pending.AsSpan(sent + 1));
                if (_length - sent < size)
                {
                    break;
                }

                await socket.SendAsync(_pending.AsMemory(sent, size), WebSocketMessageType.Binary, endOfMessage: true, cancellationToken).ConfigureAwait(false);
                sent += size;
            }

            _pending.AsSpan(sent, _length - sent).CopyTo(_pending);
            _length -= sent;
        }

        public override Task WriteAsync(byte[] buffer, int offset, int count, CancellationToken cancellationToken) =>
            WriteAsync(buffer.AsMemory(offset, count), cancellationToken).AsTask();

        public override void Write(byte[] buffer, int offset, int count) => WriteAsync(buffer, offset, count).GetAwaiter().GetResult();

        public override void Flush()
        {
        }

        public override int Read(byte[] buffer, int offset, int count) => throw new NotSupportedException();

        public override long Seek(long offset, SeekOrigin origin) => throw new NotSupportedException();

        public override void SetLength(long value) => throw new NotSupportedException();
    }
}
