using ProtoHttp.FunctionalTests.Infrastructure;
using Xunit.Abstractions;

namespace ProtoHttp.FunctionalTests.Hardening;

/// <summary>
/// How the streaming suites send their cases: in batches, each over a few raw HTTP/1.1 connections at once and
/// followed by a check that the server still answers; at the end every Error log the server wrote is a failure.
/// </summary>
public static class FuzzBatches
{
    private const int Connections = 4;

    public static async Task RunAsync<T>(
        SampleServer server, IEnumerable<T> cases, int batchSize, Func<RawHttpConnection, T, Task> runCase, Func<Task> afterBatch)
    {
        foreach (var batch in cases.Chunk(batchSize))
        {
            var next = -1;
            await Task.WhenAll(Enumerable.Range(0, Connections).Select(async _ =>
            {
                using var connection = new RawHttpConnection(server.Http1Address);
                for (var i = Interlocked.Increment(ref next); i < batch.Length; i = Interlocked.Increment(ref next))
                {
                    await runCase(connection, batch[i]);
                }
            }));

            await afterBatch();
        }
    }

    /// <summary>Adds the server's Error logs to <paramref name="report"/>'s failures and writes it, with its first 30 failures.</summary>
    public static async Task FinishAsync(SampleServer server, FuzzReport report, ITestOutputHelper output, params string[] notes)
    {
        await server.Logs.WhenRequestsEndedAsync(); // Log lines can trail the answers by a moment; not the requests' ends.
        foreach (var entry in server.Logs.Errors)
        {
            report.Fail($"Error log: [{entry.Category}] {entry.Message} {entry.Exception}");
        }

        output.WriteLine(report.ToString());
        foreach (var note in notes)
        {
            output.WriteLine(note);
        }

        foreach (var failure in report.Failures.Take(30))
        {
            output.WriteLine(failure);
        }
    }
}
