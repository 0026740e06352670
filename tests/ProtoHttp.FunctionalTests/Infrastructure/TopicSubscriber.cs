using System.Collections.Concurrent;
using System.Net.ServerSentEvents;
using System.Text;
using System.Text.Json;
using Google.Protobuf;
using Northwind;

namespace ProtoHttp.FunctionalTests.Infrastructure;

/// <summary>
/// A client of a topic stream (events or NDJSON), reading it as any client would, without ProtoHttp's code: it keeps
/// each tick with the id it came with, and each gap notice. It can resume, as an <c>EventSource</c> does, by sending
/// the last id it got as <c>Last-Event-ID</c>, on any server.
/// </summary>
public sealed class TopicSubscriber : IAsyncDisposable
{
    private readonly ConcurrentQueue<Received> _received = new();
    private CancellationTokenSource _stop = new();
    private Task _reading = Task.CompletedTask;

    private TopicSubscriber(string path)
    {
        Path = path;
    }

    /// <summary>The stream's path, its suffix naming the format (<c>.sse</c> or <c>.ndjson</c>).</summary>
    public string Path { get; }

    /// <summary>Every tick, with its id, in the order received, over every connection.</summary>
    public IReadOnlyList<Received> Ticks => [.. _received.Where(r => r.Tick is not null)];

    /// <summary>The ids of the gap notices received.</summary>
    public IReadOnlyList<string> Gaps => [.. _received.Where(r => r.Tick is null).Select(r => r.Id)];

    /// <summary>Whether the current connection is open.</summary>
    public bool Connected => !_reading.IsCompleted;

    /// <summary>The last id received, what a reconnect sends.</summary>
    public string? LastId => _received.LastOrDefault(r => r.Tick is not null)?.Id;

    /// <summary>Starts reading <paramref name="path"/> from <paramref name="client"/>, live, or after <paramref name="lastEventId"/>.</summary>
    public static TopicSubscriber Start(HttpClient client, string path, string? lastEventId = null)
    {
        var subscriber = new TopicSubscriber(path);
        subscriber.Connect(client, lastEventId);
        return subscriber;
    }

    /// <summary>Connects again, to <paramref name="client"/>'s server, resuming after the last id received.</summary>
    public async Task ResumeOnAsync(HttpClient client)
    {
        await StopReadingAsync();
        _stop = new CancellationTokenSource();
        Connect(client, LastId);
    }

    /// <summary>Waits until at least <paramref name="count"/> ticks have arrived.</summary>
    public async Task WaitForTicksAsync(int count, TimeSpan timeout)
    {
        var deadline = DateTime.UtcNow + timeout;
        while (Ticks.Count < count)
        {
            if (_reading.IsFaulted)
            {
                await _reading; // Throws what ended the stream.
            }

            if (DateTime.UtcNow > deadline)
            {
                throw new TimeoutException($"{Path} had {Ticks.Count} ticks after {timeout}, not {count}.");
            }

            await Task.Delay(20);
        }
    }

    /// <summary>Waits until the connection has ended (its server went away).</summary>
    public Task WaitUntilDisconnectedAsync(TimeSpan timeout) => _reading.ContinueWith(_ => { }, TaskScheduler.Default).WaitAsync(timeout);

    /// <summary>Closes the connection, as a client that goes away does.</summary>
    public Task DisconnectAsync() => StopReadingAsync();

    public async ValueTask DisposeAsync() => await StopReadingAsync();

    private void Connect(HttpClient client, string? lastEventId)
    {
        var stop = _stop.Token;
        _reading = Task.Run(() => ReadAsync(client, lastEventId, stop));
    }

    private async Task StopReadingAsync()
    {
        await _stop.CancelAsync();
        try
        {
            await _reading;
        }
        catch (Exception e) when (e is OperationCanceledException or HttpRequestException or IOException)
        {
            // Stopped by the test, or its server went away.
        }
    }

    private async Task ReadAsync(HttpClient client, string? lastEventId, CancellationToken cancellationToken)
    {
        using var request = new HttpRequestMessage(HttpMethod.Get, Path);
        if (lastEventId is not null)
        {
            request.Headers.TryAddWithoutValidation("Last-Event-ID", lastEventId);
        }

        using var response = await client.SendAsync(request, HttpCompletionOption.ResponseHeadersRead, cancellationToken);
        response.EnsureSuccessStatusCode();
        var stream = await response.Content.ReadAsStreamAsync(cancellationToken);
        if (response.Content.Headers.ContentType?.MediaType == StreamWire.Events)
        {
            await foreach (var item in SseParser.Create(stream).EnumerateAsync(cancellationToken))
            {
                if (item.EventType == "gap")
                {
                    using var gap = JsonDocument.Parse(item.Data);
                    _received.Enqueue(new Received(gap.RootElement.GetProperty("lastEventId").GetString()!, null));
                }
                else if (item.EventType == SseParser.EventTypeDefault)
                {
                    _received.Enqueue(new Received(item.EventId ?? throw new InvalidDataException("An event without an id."), JsonParser.Default.Parse<PriceTick>(item.Data)));
                }
            }

            return;
        }

        using var reader = new StreamReader(stream, Encoding.UTF8);
        while (await reader.ReadLineAsync(cancellationToken) is { } line)
        {
            using var document = JsonDocument.Parse(line);
            var root = document.RootElement;
            if (root.TryGetProperty("gap", out var gap))
            {
                _received.Enqueue(new Received(gap.GetProperty("lastEventId").GetString()!, null));
            }
            else if (root.TryGetProperty("result", out var result))
            {
                _received.Enqueue(new Received(root.GetProperty("id").GetString()!, JsonParser.Default.Parse<PriceTick>(result.GetRawText())));
            }
        }
    }

    /// <summary>A tick and its id, or (with no tick) a gap notice and the id it names.</summary>
    public sealed record Received(string Id, PriceTick? Tick);
}
