using System.Buffers.Binary;
using System.Net.ServerSentEvents;
using System.Runtime.CompilerServices;
using System.Text;
using System.Text.Json;
using Google.Protobuf;

namespace ProtoHttp.FunctionalTests.Infrastructure;

/// <summary>
/// Reads and writes streams as any client would, without ProtoHttp's code: events through .NET's <see cref="SseParser"/>,
/// NDJSON line by line, Connect envelopes by their 5-byte headers.
/// </summary>
public static class StreamWire
{
    public const string Events = "text/event-stream";
    public const string Lines = "application/x-ndjson";
    public const string ConnectProto = "application/connect+proto";
    public const string ConnectJson = "application/connect+json";

    public static readonly string[] Formats = [Events, Lines, ConnectProto, ConnectJson];

    /// <summary>The records of a response stream as they arrive, in the format its <c>Content-Type</c> names.</summary>
    public static async IAsyncEnumerable<StreamRecord<T>> ReadAsync<T>(HttpResponseMessage response, [EnumeratorCancellation] CancellationToken cancellationToken = default)
        where T : class, IMessage<T>, new()
    {
        var stream = await response.Content.ReadAsStreamAsync(cancellationToken);
        var records = response.Content.Headers.ContentType?.MediaType switch
        {
            Events => ReadEventsAsync<T>(stream, cancellationToken),
            Lines or "application/jsonl" => ReadLinesAsync<T>(stream, cancellationToken),
            ConnectProto => ReadEnvelopesAsync<T>(stream, json: false, Gzipped(response), cancellationToken),
            ConnectJson => ReadEnvelopesAsync<T>(stream, json: true, Gzipped(response), cancellationToken),
            var other => throw new InvalidOperationException($"Not a stream: {other}"),
        };
        await foreach (var record in records)
        {
            yield return record;
        }
    }

    /// <summary>The whole stream: its messages and how it ended (lines end OK without a last line when nothing failed).</summary>
    public static async Task<(List<T> Messages, StreamEnd End)> ReadAllAsync<T>(HttpResponseMessage response)
        where T : class, IMessage<T>, new()
    {
        var messages = new List<T>();
        StreamEnd? end = null;
        await foreach (var record in ReadAsync<T>(response))
        {
            Assert.Null(end); // Nothing follows the last record.
            if (record.Message is { } message)
            {
                messages.Add(message);
            }
            else
            {
                end = record.End;
            }
        }

        if (end is null && response.Content.Headers.ContentType?.MediaType == Lines)
        {
            end = new StreamEnd("OK", null, new Dictionary<string, string[]>());
        }

        return (messages, end ?? throw new InvalidOperationException("The stream ended without its last record."));
    }

    /// <summary>One envelope: the flags, the 4-byte big-endian length, the payload.</summary>
    public static byte[] Envelope(byte[] payload, byte flags = 0)
    {
        var envelope = new byte[5 + payload.Length];
        envelope[0] = flags;
        BinaryPrimitives.WriteInt32BigEndian(envelope.AsSpan(1), payload.Length);
        payload.CopyTo(envelope, 5);
        return envelope;
    }

    /// <summary>A message's envelope in the codec of an envelope media type.</summary>
    public static byte[] Envelope(IMessage message, string mediaType) =>
        Envelope(mediaType == ConnectJson ? Encoding.UTF8.GetBytes(JsonFormatter.Default.Format(message)) : message.ToByteArray());

    private static async IAsyncEnumerable<StreamRecord<T>> ReadEventsAsync<T>(Stream stream, [EnumeratorCancellation] CancellationToken cancellationToken)
        where T : class, IMessage<T>, new()
    {
        await foreach (var item in SseParser.Create(stream).EnumerateAsync(cancellationToken))
        {
            if (item.EventType == "end")
            {
                using var end = JsonDocument.Parse(item.Data);
                yield return new StreamRecord<T>(null, ReadEnd(end.RootElement, end.RootElement));
            }
            else
            {
                Assert.Equal(SseParser.EventTypeDefault, item.EventType);
                yield return new StreamRecord<T>(JsonParser.Default.Parse<T>(item.Data), null);
            }
        }
    }

    private static async IAsyncEnumerable<StreamRecord<T>> ReadLinesAsync<T>(Stream stream, [EnumeratorCancellation] CancellationToken cancellationToken)
        where T : class, IMessage<T>, new()
    {
        using var reader = new StreamReader(stream, Encoding.UTF8);
        while (await reader.ReadLineAsync(cancellationToken) is { } line)
        {
            using var document = JsonDocument.Parse(line);
            var root = document.RootElement;
            if (root.TryGetProperty("result", out var result))
            {
                yield return new StreamRecord<T>(JsonParser.Default.Parse<T>(result.GetRawText()), null);
            }
            else if (root.TryGetProperty("error", out var error))
            {
                yield return new StreamRecord<T>(null, ReadEnd(error, root));
            }
            else
            {
                yield return new StreamRecord<T>(null, new StreamEnd("OK", null, ReadMetadata(root)));
            }
        }
    }

    /// <summary>The envelopes of a Connect stream: its payloads, gunzipped where flagged compressed (0x01).</summary>
    public static List<(byte Flags, byte[] Payload)> Envelopes(byte[] body, bool gzipped)
    {
        var envelopes = new List<(byte, byte[])>();
        for (var at = 0; at < body.Length;)
        {
            var length = BinaryPrimitives.ReadInt32BigEndian(body.AsSpan(at + 1));
            var payload = body.AsSpan(at + 5, length).ToArray();
            var flags = body[at];
            Assert.True(gzipped || (flags & 0x01) == 0, "A compressed envelope in a stream whose Connect-Content-Encoding is not gzip.");
            envelopes.Add((flags, (flags & 0x01) != 0 ? ConnectWire.Gunzip(payload) : payload));
            at += 5 + length;
        }

        return envelopes;
    }

    /// <summary>Whether the response's Connect-Content-Encoding is gzip, so that envelopes flagged 0x01 hold gzip.</summary>
    public static bool Gzipped(HttpResponseMessage response) =>
        response.Headers.TryGetValues("Connect-Content-Encoding", out var values) && values.Single() == "gzip";

    private static async IAsyncEnumerable<StreamRecord<T>> ReadEnvelopesAsync<T>(
        Stream stream, bool json, bool gzipped, [EnumeratorCancellation] CancellationToken cancellationToken)
        where T : class, IMessage<T>, new()
    {
        var header = new byte[5];
        while (await ReadExactlyOrEndAsync(stream, header, cancellationToken))
        {
            var payload = new byte[BinaryPrimitives.ReadInt32BigEndian(header.AsSpan(1))];
            await stream.ReadExactlyAsync(payload, cancellationToken);
            if ((header[0] & 0x01) != 0)
            {
                Assert.True(gzipped, "A compressed envelope in a stream whose Connect-Content-Encoding is not gzip.");
                payload = ConnectWire.Gunzip(payload);
                header[0] &= 0xFE;
            }

            if (header[0] == 0x02)
            {
                using var end = JsonDocument.Parse(payload);
                var root = end.RootElement;
                var code = "OK";
                string? message = null;
                if (root.TryGetProperty("error", out var error))
                {
                    code = error.GetProperty("code").GetString()!.ToUpperInvariant();
                    code = code == "CANCELED" ? "CANCELLED" : code;
                    message = error.TryGetProperty("message", out var text) ? text.GetString() : null;
                }

                yield return new StreamRecord<T>(null, new StreamEnd(code, message, ReadMetadata(root)));
            }
            else
            {
                Assert.Equal(0, header[0]);
                var tick = json ? JsonParser.Default.Parse<T>(Encoding.UTF8.GetString(payload)) : new MessageParser<T>(() => new T()).ParseFrom(payload);
                yield return new StreamRecord<T>(tick, null);
            }
        }
    }

    private static async Task<bool> ReadExactlyOrEndAsync(Stream stream, byte[] buffer, CancellationToken cancellationToken)
    {
        var read = await stream.ReadAtLeastAsync(buffer, buffer.Length, throwOnEndOfStream: false, cancellationToken);
        Assert.True(read == 0 || read == buffer.Length, $"The stream ended inside an envelope header ({read} bytes).");
        return read == buffer.Length;
    }

    private static StreamEnd ReadEnd(JsonElement errorResult, JsonElement root) => new(
        errorResult.GetProperty("code").GetString()!,
        errorResult.TryGetProperty("errorText", out var text) ? text.GetString() : null,
        ReadMetadata(root));

    private static Dictionary<string, string[]> ReadMetadata(JsonElement root)
    {
        var metadata = new Dictionary<string, string[]>();
        if (root.TryGetProperty("metadata", out var entries))
        {
            foreach (var entry in entries.EnumerateObject())
            {
                metadata[entry.Name] = entry.Value.EnumerateArray().Select(v => v.GetString()!).ToArray();
            }
        }

        return metadata;
    }
}
