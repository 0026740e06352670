using Grpc.Core;
using ProtoHttp.FunctionalTests.RestStreams;

namespace ProtoHttp.FunctionalTests.Services;

/// <summary>
/// The REST stream tests' Tally: <c>value</c> entries named after the request, snapshots of the running total. Every
/// answer is made from the request alone, so ProtoHttp and transcoding answer the same call alike.
/// </summary>
public sealed class TallyService : Tally.TallyBase
{
    public override Task<Total> Count(Entry request, ServerCallContext context) =>
        Task.FromResult(new Total { Name = request.Name, Total_ = request.Value });

    public override async Task<Total> Add(IAsyncStreamReader<Entry> requestStream, ServerCallContext context)
    {
        var total = new Total();
        await foreach (var entry in requestStream.ReadAllAsync())
        {
            total.Name = entry.Name;
            total.Total_ += entry.Value;
        }

        return total;
    }

    public override async Task Exchange(IAsyncStreamReader<Entry> requestStream, IServerStreamWriter<Total> responseStream, ServerCallContext context)
    {
        await foreach (var entry in requestStream.ReadAllAsync())
        {
            await responseStream.WriteAsync(new Total { Name = entry.Name, Total_ = entry.Value });
        }
    }

    public override Task WatchEntries(Entry request, IServerStreamWriter<Snapshot> responseStream, ServerCallContext context) =>
        WriteSnapshotsAsync(request, responseStream);

    public override Task WatchNames(Entry request, IServerStreamWriter<Snapshot> responseStream, ServerCallContext context) =>
        WriteSnapshotsAsync(request, responseStream);

    // Snapshot i (from 1 to value): the i-th entry as last, the names of the entries so far, their total.
    private static async Task WriteSnapshotsAsync(Entry request, IServerStreamWriter<Snapshot> responseStream)
    {
        var snapshot = new Snapshot();
        for (var i = 1; i <= request.Value; i++)
        {
            snapshot.Last = new Entry { Name = $"{request.Name}-{i}", Value = i };
            snapshot.Names.Add(snapshot.Last.Name);
            snapshot.Total += i;
            await responseStream.WriteAsync(snapshot.Clone());
        }
    }
}
