using System.Collections.Concurrent;
using Northwind;

namespace ProtoHttp.FunctionalTests.Infrastructure;

/// <summary>A client watching the sample's price feed over one stream format, keeping every tick it receives.</summary>
public sealed class TickSubscriber : IAsyncDisposable
{
    private readonly ConcurrentQueue<PriceTick> _ticks = new();
    private readonly CancellationTokenSource _stop = new();
    private readonly Task _reading;

    private TickSubscriber(HttpClient client, string path)
    {
        Path = path;
        _reading = Task.Run(() => ReadAsync(client, path, _stop.Token));
    }

    public string Path { get; }

    public IReadOnlyList<PriceTick> Ticks => [.. _ticks];

    /// <summary>Whether the stream is still open: it ends only when the test stops it.</summary>
    public bool Connected => !_reading.IsCompleted;

    /// <summary>Starts watching; the stream's headers come with its first tick, so this does not wait for them.</summary>
    public static TickSubscriber Start(HttpClient client, string path) => new(client, path);

    /// <summary>Waits until a tick <paramref name="match"/> accepts has arrived.</summary>
    public async Task WaitForAsync(Func<PriceTick, bool> match, TimeSpan timeout)
    {
        var deadline = DateTime.UtcNow + timeout;
        while (!_ticks.Any(match))
        {
            if (_reading.IsCompleted)
            {
                await _reading; // Throws what ended the stream.
                throw new InvalidOperationException($"The stream at {Path} ended.");
            }

            if (DateTime.UtcNow > deadline)
            {
                throw new TimeoutException($"No awaited tick at {Path} within {timeout}; it has {_ticks.Count}.");
            }

            await Task.Delay(20);
        }
    }

    public async ValueTask DisposeAsync()
    {
        await _stop.CancelAsync();
        try
        {
            await _reading;
        }
        catch (Exception e) when (e is OperationCanceledException or HttpRequestException or IOException)
        {
            // Stopped by the test.
        }

        _stop.Dispose();
    }

    private async Task ReadAsync(HttpClient client, string path, CancellationToken cancellationToken)
    {
        using var response = await client.SendAsync(new HttpRequestMessage(HttpMethod.Get, path), HttpCompletionOption.ResponseHeadersRead, cancellationToken);
        response.EnsureSuccessStatusCode();
        await foreach (var record in StreamWire.ReadAsync<PriceTick>(response, cancellationToken))
        {
            if (record.Message is { } tick)
            {
                _ticks.Enqueue(tick);
            }
        }
    }
}
