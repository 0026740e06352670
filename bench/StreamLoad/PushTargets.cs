using System.Buffers;
using System.Net.ServerSentEvents;
using System.Text.Json;
using Microsoft.AspNetCore.SignalR.Client;
using ProtoHttp.Bench.Streams;

namespace StreamLoad;

/// <summary>
/// W4: each peer's way of receiving <c>count</c> notifications over one stream. Every reader materializes each message
/// (protobuf parse, or System.Text.Json into the same C# class SignalR's client fills), checks it, and checks that the
/// stream ended well; a reader returns the number of messages it got.
/// </summary>
internal static class PushTargets
{
    public static readonly string[] All =
    [
        "sse-h1", "ndjson-h1", "envelopes-h1", "envelopes-h2c", "connect-h1", "connect-h2c", "grpc-h2c", "signalr-json", "signalr-msgpack",
    ];

    public static async Task<Func<int, CancellationToken, Task<long>>> CreateAsync(string target, Peers peers, List<IAsyncDisposable> owned)
    {
        switch (target)
        {
            case "sse-h1":
                return (count, ct) => ReadEventsAsync(peers.Http1, count, ct);
            case "ndjson-h1":
                return (count, ct) => ReadLinesAsync(peers.Http1, count, ct);
            case "envelopes-h1":
                return (count, ct) => ReadEnvelopesAsync(peers.Http1, StreamWorkload.ProtoHttpPush, "application/x-protobuf", framed: false, count, ct);
            case "envelopes-h2c":
                return (count, ct) => ReadEnvelopesAsync(peers.H2c, StreamWorkload.ProtoHttpPush, "application/x-protobuf", framed: false, count, ct);
            case "connect-h1":
                return (count, ct) => ReadEnvelopesAsync(peers.Http1, StreamWorkload.RpcPush, "application/connect+proto", framed: true, count, ct);
            case "connect-h2c":
                return (count, ct) => ReadEnvelopesAsync(peers.H2c, StreamWorkload.RpcPush, "application/connect+proto", framed: true, count, ct);
            case "grpc-h2c":
                return (count, ct) => ReadGrpcAsync(peers.H2c, count, ct);
            case "signalr-json":
            case "signalr-msgpack":
                var hub = peers.Hub(messagePack: target == "signalr-msgpack", handshakeTimeout: TimeSpan.FromSeconds(60));
                await hub.StartAsync();
                owned.Add(hub);
                return (count, ct) => ReadHubAsync(hub, count, ct);
            default:
                throw new ArgumentException($"Unknown W4 target '{target}'; known: {string.Join(", ", All)}.");
        }
    }

    private static async Task<long> ReadEventsAsync(HttpClient client, int count, CancellationToken cancellationToken)
    {
        using var request = Peers.Post(StreamWorkload.ProtoHttpPush, new PushRequest { Count = count }, "application/x-protobuf", "text/event-stream", framed: false);
        using var response = await Peers.SendAsync(client, request, cancellationToken);
        await using var body = await response.Content.ReadAsStreamAsync(cancellationToken);
        long received = 0;
        var ended = false;
        var parser = SseParser.Create(body, static (type, data) => type == "end"
            ? JsonSerializer.Deserialize(data, StreamJson.Default.EndRecord)
            : (object?)JsonSerializer.Deserialize(data, StreamJson.Default.NotificationDto));
        await foreach (var item in parser.EnumerateAsync(cancellationToken))
        {
            if (item.EventType == "end")
            {
                var end = (EndRecord?)item.Data;
                ended = end?.Code == "OK" ? true : throw new InvalidDataException($"The stream ended with {end?.Code}.");
            }
            else
            {
                Check.Notification((NotificationDto?)item.Data);
                received++;
            }
        }

        return ended ? received : throw new InvalidDataException("The event stream had no end event.");
    }

    private static async Task<long> ReadLinesAsync(HttpClient client, int count, CancellationToken cancellationToken)
    {
        using var request = Peers.Post(StreamWorkload.ProtoHttpPush, new PushRequest { Count = count }, "application/x-protobuf", "application/x-ndjson", framed: false);
        using var response = await Peers.SendAsync(client, request, cancellationToken);
        await using var body = await response.Content.ReadAsStreamAsync(cancellationToken);
        long received = 0;
        await LineReader.ReadAllAsync(body, line =>
        {
            var reader = new Utf8JsonReader(line);
            var record = JsonSerializer.Deserialize(ref reader, StreamJson.Default.ResultLineNotificationDto);
            if (record?.Error is { } error)
            {
                throw new InvalidDataException($"The stream failed: {error}");
            }

            if (record?.Result is { } result)
            {
                Check.Notification(result);
                received++;
            }
        }, cancellationToken);
        return received;
    }

    private static async Task<long> ReadEnvelopesAsync(HttpClient client, string path, string contentType, bool framed, int count, CancellationToken cancellationToken)
    {
        using var request = Peers.Post(path, new PushRequest { Count = count }, contentType, framed ? "" : "application/connect+proto", framed);
        using var response = await Peers.SendAsync(client, request, cancellationToken);
        await using var body = await response.Content.ReadAsStreamAsync(cancellationToken);
        long received = 0;
        var ended = false;
        await EnvelopeReader.ReadAllAsync(body, (flags, payload) =>
        {
            if ((flags & EnvelopeReader.EndStreamFlag) != 0)
            {
                Check.EndStream(payload);
                ended = true;
            }
            else
            {
                Check.Notification(Notification.Parser.ParseFrom(payload));
                received++;
            }
        }, cancellationToken);
        return ended ? received : throw new InvalidDataException("The envelope stream had no end-stream envelope.");
    }

    private static async Task<long> ReadGrpcAsync(HttpClient client, int count, CancellationToken cancellationToken)
    {
        using var request = Peers.Post(StreamWorkload.RpcPush, new PushRequest { Count = count }, "application/grpc", "", framed: true);
        using var response = await Peers.SendAsync(client, request, cancellationToken);
        await using (var body = await response.Content.ReadAsStreamAsync(cancellationToken))
        {
            long received = 0;
            await EnvelopeReader.ReadAllAsync(body, (_, payload) =>
            {
                Check.Notification(Notification.Parser.ParseFrom(payload));
                received++;
            }, cancellationToken);
            Check.GrpcOk(response);
            return received;
        }
    }

    private static async Task<long> ReadHubAsync(HubConnection hub, int count, CancellationToken cancellationToken)
    {
        long received = 0;
        await foreach (var notification in hub.StreamAsync<NotificationDto>("Push", count, cancellationToken))
        {
            Check.Notification(notification);
            received++;
        }

        return received;
    }
}
