using System.Buffers.Binary;
using System.Net;
using System.Net.WebSockets;
using System.Text;
using System.Text.Json;
using Google.Protobuf;

namespace ProtoHttp.FunctionalTests.WebSockets;

/// <summary>
/// A call over WebSocket as a plain client makes it (docs/protocol.md section 13), with .NET's ClientWebSocket over
/// HTTP/1.1 or HTTP/2 (h2c): envelopes out as binary messages, envelopes in until the end envelope, then the close.
/// </summary>
public sealed class WebSocketCall : IAsyncDisposable
{
    private readonly HttpMessageInvoker _invoker;

    private WebSocketCall(ClientWebSocket socket, HttpMessageInvoker invoker)
    {
        Socket = socket;
        _invoker = invoker;
    }

    public ClientWebSocket Socket { get; }

    /// <summary>Whether messages go out as JSON (<c>protohttp+json</c>, or no subprotocol) rather than protobuf.</summary>
    public bool Json => Socket.SubProtocol is null or "protohttp+json";

    /// <summary>Opens a call at <paramref name="path"/> (with any query) on <paramref name="server"/>'s HTTP/1.1 or h2c endpoint.</summary>
    public static async Task<WebSocketCall> OpenAsync(
        Uri server, string path, bool http2 = false, string[]? subprotocols = null, Action<ClientWebSocketOptions>? configure = null)
    {
        var socket = new ClientWebSocket();
        socket.Options.CollectHttpResponseDetails = true;
        if (http2)
        {
            socket.Options.HttpVersion = HttpVersion.Version20;
            socket.Options.HttpVersionPolicy = HttpVersionPolicy.RequestVersionExact;
        }

        foreach (var subprotocol in subprotocols ?? ["protohttp+proto"])
        {
            socket.Options.AddSubProtocol(subprotocol);
        }

        configure?.Invoke(socket.Options);
        var invoker = new HttpMessageInvoker(new SocketsHttpHandler());
        var uri = new UriBuilder(new Uri(server, path)) { Scheme = "ws" }.Uri;
        using var timeout = new CancellationTokenSource(TimeSpan.FromSeconds(30));
        try
        {
            await socket.ConnectAsync(uri, invoker, timeout.Token);
        }
        catch (WebSocketException ex)
        {
            invoker.Dispose();
            throw new UpgradeRefusedException(socket.HttpStatusCode, ex);
        }

        return new WebSocketCall(socket, invoker);
    }

    /// <summary>The status a refused upgrade answered.</summary>
    public static async Task<HttpStatusCode> RefusedStatusAsync(
        Uri server, string path, bool http2 = false, string[]? subprotocols = null, Action<ClientWebSocketOptions>? configure = null) =>
        (await Assert.ThrowsAsync<UpgradeRefusedException>(() => OpenAsync(server, path, http2, subprotocols, configure))).Status;

    public Task SendAsync(IMessage message) =>
        SendEnvelopeAsync(0x00, Json ? Encoding.UTF8.GetBytes(JsonFormatter.Default.Format(message)) : message.ToByteArray());

    /// <summary>The client's half-close: an empty envelope with flags 0x02.</summary>
    public Task HalfCloseAsync() => SendEnvelopeAsync(0x02, []);

    public async Task SendEnvelopeAsync(byte flags, byte[] payload)
    {
        var envelope = new byte[5 + payload.Length];
        envelope[0] = flags;
        BinaryPrimitives.WriteInt32BigEndian(envelope.AsSpan(1), payload.Length);
        payload.CopyTo(envelope, 5);
        await Socket.SendAsync(envelope, WebSocketMessageType.Binary, true, CancellationToken.None);
    }

    /// <summary>The next envelope from the server: its flags and payload; null when the socket closed instead.</summary>
    public async Task<(byte Flags, byte[] Payload)?> ReceiveAsync(TimeSpan? timeout = null)
    {
        using var limit = new CancellationTokenSource(timeout ?? TimeSpan.FromSeconds(30));
        using var message = new MemoryStream();
        var buffer = new byte[16 * 1024];
        WebSocketReceiveResult result;
        do
        {
            result = await Socket.ReceiveAsync(buffer, limit.Token);
            if (result.MessageType == WebSocketMessageType.Close)
            {
                return null;
            }

            Assert.Equal(WebSocketMessageType.Binary, result.MessageType);
            message.Write(buffer, 0, result.Count);
        }
        while (!result.EndOfMessage);

        var bytes = message.ToArray();
        Assert.True(bytes.Length >= 5, "a message holds at least an envelope's header");
        Assert.Equal(bytes.Length - 5, BinaryPrimitives.ReadInt32BigEndian(bytes.AsSpan(1)));
        return (bytes[0], bytes[5..]);
    }

    /// <summary>The next message of the answer; fails on the end envelope.</summary>
    public async Task<T> ReceiveMessageAsync<T>(MessageParser<T> parser)
        where T : IMessage<T>
    {
        var envelope = await ReceiveAsync() ?? throw new InvalidOperationException("The socket closed before a message.");
        Assert.True(envelope.Flags == 0, $"expected a message, got the end: {Encoding.UTF8.GetString(envelope.Payload)}");
        return Json ? parser.ParseJson(Encoding.UTF8.GetString(envelope.Payload)) : parser.ParseFrom(envelope.Payload);
    }

    /// <summary>Reads messages up to the end envelope, then the server's close, and answers the close.</summary>
    public async Task<(List<T> Messages, JsonElement End, WebSocketCloseStatus? Close)> ReadToEndAsync<T>(MessageParser<T> parser)
        where T : IMessage<T>
    {
        var messages = new List<T>();
        while (await ReceiveAsync() is { } envelope)
        {
            if (envelope.Flags == 0x02)
            {
                var end = JsonDocument.Parse(envelope.Payload).RootElement.Clone();
                var close = await ReceiveAsync();
                Assert.Null(close); // the close follows the end envelope
                await Socket.CloseOutputAsync(WebSocketCloseStatus.NormalClosure, null, CancellationToken.None);
                return (messages, end, Socket.CloseStatus);
            }

            Assert.Equal(0, envelope.Flags);
            messages.Add(Json ? parser.ParseJson(Encoding.UTF8.GetString(envelope.Payload)) : parser.ParseFrom(envelope.Payload));
        }

        throw new InvalidOperationException($"The socket closed ({Socket.CloseStatus}) without an end envelope.");
    }

    public async ValueTask DisposeAsync()
    {
        Socket.Abort();
        Socket.Dispose();
        _invoker.Dispose();
        await Task.CompletedTask;
    }
}

/// <summary>The server answered the upgrade with another status than 101 (or 200 over HTTP/2).</summary>
public sealed class UpgradeRefusedException(HttpStatusCode status, Exception inner)
    : Exception($"The upgrade was refused with {(int)status}.", inner)
{
    public HttpStatusCode Status { get; } = status;
}
