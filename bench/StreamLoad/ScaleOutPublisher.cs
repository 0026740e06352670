using System.Net.Http.Headers;
using Google.Protobuf;
using ProtoHttp.Bench.Streams;

namespace StreamLoad;

/// <summary>
/// W6's one publisher: at each interval a tick with the next sequence and the monotonic clock, posted as protobuf to
/// the instance that stays (<c>POST /publish</c>), which publishes it to every subscriber of both instances.
/// </summary>
internal sealed class ScaleOutPublisher(HttpClient client, TimeSpan interval)
{
    private long _latest;
    private long _errors;
    private string? _firstError;

    /// <summary>The newest sequence the server confirmed as published.</summary>
    public long Latest => Interlocked.Read(ref _latest);

    public long Errors => Interlocked.Read(ref _errors);

    public string? FirstError => _firstError;

    public async Task RunAsync(CancellationToken stop)
    {
        using var timer = new PeriodicTimer(interval);
        try
        {
            while (await timer.WaitForNextTickAsync(stop))
            {
                // A publish that failed is sent again with its sequence: the server refused it (a topic's publish is
                // never appended after it failed), so no subscriber is to count it lost.
                var sequence = Latest + 1;
                var tick = new Tick { Sequence = sequence, PublishedNs = StreamWorkload.NowNs(), Notification = StreamWorkload.Notification };
                using var content = new ByteArrayContent(tick.ToByteArray());
                content.Headers.ContentType = new MediaTypeHeaderValue("application/x-protobuf");
                try
                {
                    using var response = await client.PostAsync("/publish", content, stop);
                    response.EnsureSuccessStatusCode();
                    Interlocked.Exchange(ref _latest, sequence);
                }
                catch (Exception ex) when (!stop.IsCancellationRequested)
                {
                    Interlocked.Increment(ref _errors);
                    Interlocked.CompareExchange(ref _firstError, ex.GetType().Name + ": " + ex.Message, null);
                }
            }
        }
        catch (OperationCanceledException) when (stop.IsCancellationRequested)
        {
            // The run is over.
        }
    }
}
