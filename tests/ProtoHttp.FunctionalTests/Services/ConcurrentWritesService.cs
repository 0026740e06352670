using Grpc.Core;
using ProtoHttp.FunctionalTests.Protos.Streaming;

namespace ProtoHttp.FunctionalTests.Services;

/// <summary>
/// Count, written by <see cref="Writers"/> tasks at once to the one response stream: writer <c>w</c>'s tick <c>i</c> has
/// the sequence <c>w * 1000 + i</c> and the text <see cref="Text"/>, long enough (several of the response pipe's 4 KB
/// segments) that a record is copied into the pipe in several steps, between which another writer's steps would land
/// without the writer's lock. Each writer waits for its own writes; the writers do not wait for each other.
/// </summary>
public sealed class ConcurrentWritesService : StreamingService.StreamingServiceBase
{
    public const int Writers = 16;

    public static string Text(int sequence) => $"tick {sequence} " + new string((char)('a' + (sequence % 26)), 32_000);

    public override async Task Count(CountRequest request, IServerStreamWriter<Tick> responseStream, ServerCallContext context)
    {
        using var start = new SemaphoreSlim(0);
        var writers = Enumerable.Range(0, Writers).Select(writer => Task.Run(async () =>
        {
            await start.WaitAsync(context.CancellationToken);
            for (var i = 0; i < request.Count; i++)
            {
                var sequence = (writer * 1000) + i;
                await responseStream.WriteAsync(new Tick { Sequence = sequence, Text = Text(sequence) });
            }
        })).ToList();
        start.Release(Writers); // All at once, so their writes overlap from the first.
        await Task.WhenAll(writers);
    }
}
