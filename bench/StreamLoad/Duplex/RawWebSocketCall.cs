using System.Buffers.Binary;
using System.Net;
using System.Net.WebSockets;
using System.Text;
using Google.Protobuf;
using ProtoHttp.Bench.Streams.Duplex;

namespace StreamLoad.Duplex;

/// <summary>
/// ProtoHttp's echo over a bare <see cref="ClientWebSocket"/> speaking docs/protocol.md section 13 by hand: the
/// subprotocol <c>protohttp+proto</c>, one binary message per envelope (flags, 4-byte big-endian length, protobuf), the
/// half-close as an empty <c>0x02</c> envelope, the end envelope's JSON, then the close. Over HTTP/1.1 each call has
/// its own connection; given an HTTP/2 <paramref name="invoker"/> (RFC 8441, h2c with prior knowledge) the calls are
/// streams on the invoker's shared connections, as gRPC's are.
/// </summary>
internal sealed class RawWebSocketCall(Uri address, HttpMessageInvoker? invoker = null) : EchoCall
{
    private const byte EndStreamFlag = 0x02;
    private readonly ClientWebSocket _socket = new();
    private readonly byte[] _send = new byte[256];
    private readonly byte[] _receive = new byte[4096];

    public override async Task OpenAsync(CancellationToken cancellationToken)
    {
        _socket.Options.AddSubProtocol("protohttp+proto");
        var builder = new UriBuilder(address) { Scheme = address.Scheme == "https" ? "wss" : "ws", Path = DuplexWorkload.ProtoHttpEcho };
        if (invoker is null)
        {
            await _socket.ConnectAsync(builder.Uri, cancellationToken);
        }
        else
        {
            _socket.Options.HttpVersion = HttpVersion.Version20;
            _socket.Options.HttpVersionPolicy = HttpVersionPolicy.RequestVersionExact;
            await _socket.ConnectAsync(builder.Uri, invoker, cancellationToken);
        }
        if (_socket.SubProtocol != "protohttp+proto")
        {
            throw new InvalidDataException($"The server chose the subprotocol '{_socket.SubProtocol}', not protohttp+proto.");
        }

        await RoundTripAsync(cancellationToken);
    }

    public override async ValueTask RoundTripAsync(CancellationToken cancellationToken)
    {
        var request = DuplexWorkload.Request;
        var length = request.CalculateSize();
        _send[0] = 0;
        BinaryPrimitives.WriteInt32BigEndian(_send.AsSpan(1), length);
        request.WriteTo(_send.AsSpan(5, length));
        await _socket.SendAsync(_send.AsMemory(0, 5 + length), WebSocketMessageType.Binary, endOfMessage: true, cancellationToken);

        var (flags, payload) = await ReceiveEnvelopeAsync(cancellationToken);
        if (flags != 0)
        {
            throw new InvalidDataException($"An answer came with flags 0x{flags:x2}: {Encoding.UTF8.GetString(payload.Span)}");
        }

        var answer = SearchResponse.Parser.ParseFrom(payload.Span);
        CheckAnswer(answer.Result.Count, answer.Result.Count > 0 ? answer.Result[0].Title : "", request.Query);
    }

    public override async Task CompleteAsync(CancellationToken cancellationToken)
    {
        _send.AsSpan(0, 5).Clear();
        _send[0] = EndStreamFlag;
        await _socket.SendAsync(_send.AsMemory(0, 5), WebSocketMessageType.Binary, endOfMessage: true, cancellationToken);
        var (flags, payload) = await ReceiveEnvelopeAsync(cancellationToken);
        var end = Encoding.UTF8.GetString(payload.Span);
        if (flags != EndStreamFlag || end != "{}")
        {
            throw new InvalidDataException($"The call ended with flags 0x{flags:x2} and '{end}', not the end envelope '{{}}'.");
        }

        var close = await _socket.ReceiveAsync(_receive, cancellationToken);
        if (close.MessageType != WebSocketMessageType.Close || _socket.CloseStatus != WebSocketCloseStatus.NormalClosure)
        {
            throw new InvalidDataException($"After the end envelope came {close.MessageType} ({_socket.CloseStatus}), not the close 1000.");
        }

        await _socket.CloseOutputAsync(WebSocketCloseStatus.NormalClosure, null, cancellationToken);
    }

    public override ValueTask DisposeAsync()
    {
        _socket.Dispose();
        return ValueTask.CompletedTask;
    }

    /// <summary>One whole message, which must be exactly one envelope.</summary>
    private async ValueTask<(byte Flags, ReadOnlyMemory<byte> Payload)> ReceiveEnvelopeAsync(CancellationToken cancellationToken)
    {
        var received = 0;
        ValueWebSocketReceiveResult result;
        do
        {
            if (received == _receive.Length)
            {
                throw new InvalidDataException($"An answer is larger than {_receive.Length} bytes.");
            }

            result = await _socket.ReceiveAsync(_receive.AsMemory(received), cancellationToken);
            if (result.MessageType == WebSocketMessageType.Close)
            {
                throw new InvalidDataException($"The server closed the socket ({_socket.CloseStatus} {_socket.CloseStatusDescription}) before answering.");
            }

            received += result.Count;
        }
        while (!result.EndOfMessage);

        if (received < 5 || BinaryPrimitives.ReadInt32BigEndian(_receive.AsSpan(1)) != received - 5)
        {
            throw new InvalidDataException($"A message of {received} bytes is not exactly one envelope.");
        }

        return (_receive[0], _receive.AsMemory(5, received - 5));
    }
}
