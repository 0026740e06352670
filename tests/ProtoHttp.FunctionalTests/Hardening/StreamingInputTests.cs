using System.Net.Http.Headers;
using ProtoHttp.FunctionalTests.Infrastructure;
using ProtoHttp.FunctionalTests.Protos.Streaming;
using Xunit.Abstractions;

namespace ProtoHttp.FunctionalTests.Hardening;

/// <summary>
/// Malformed streaming requests against the real server on Kestrel (docs/protocol.md sections 7 and 10): every answer is a
/// 400, 413 or 415 ErrorResult, or a 200 stream whose last record names the client's fault, never a 5xx or an Error
/// log; the server answers a valid stream after every batch.
/// </summary>
public sealed class StreamingInputTests(ITestOutputHelper output) : IAsyncLifetime
{
    private const int BatchSize = 200;

    private SampleServer _server = null!;

    public async Task InitializeAsync() => _server = await SampleServer.StartAsync();

    public async Task DisposeAsync() => await _server.DisposeAsync();

    [Fact]
    public Task Envelopes() => RunAsync("envelopes", StreamMutator.EnvelopeCases(new Random(5101), 600), 600);

    [Fact]
    public Task EventAndLineShapedBodies() => RunAsync("SSE/NDJSON-shaped bodies", StreamMutator.EventAndLineShapedCases(new Random(5102), 400), 400);

    private async Task RunAsync(string kind, IEnumerable<FuzzCase> generated, int requested)
    {
        var cases = generated.ToList();
        Assert.Equal(requested, cases.Count);
        var report = new FuzzReport(kind);
        await FuzzBatches.RunAsync(_server, cases, BatchSize, (connection, fuzzCase) => RunCaseAsync(connection, fuzzCase, report), () => CheckAliveAsync(report));
        await FuzzBatches.FinishAsync(_server, report, output);

        // Every case sent is judged (one without an answer is a failure): all of them, not a floor.
        Assert.Equal(cases.Count, report.Cases);
        Assert.Empty(report.Failures);
    }

    private static async Task RunCaseAsync(RawHttpConnection connection, FuzzCase fuzzCase, FuzzReport report)
    {
        var headers = new List<(string, string)> { ("Content-Type", fuzzCase.ContentType!) };
        if (fuzzCase.Accept is { } accept)
        {
            headers.Add(("Accept", accept));
        }

        RawResponse response;
        try
        {
            response = await connection.SendAsync(fuzzCase.Verb, fuzzCase.Target, headers, fuzzCase.Body);
        }
        catch (Exception ex) when (ex is IOException or System.Net.Sockets.SocketException or TimeoutException)
        {
            report.Count(0);
            report.Fail($"{Describe(fuzzCase)}: no answer ({ex.Message})");
            return;
        }

        report.Count(response.Status);
        var contentType = response.Header("Content-Type");
        if (response.Status != 200)
        {
            var error = ErrorBody.TryRead(contentType, response.Body);
            if (error is null || response.Status is not (400 or 413 or 415))
            {
                report.Fail($"{Describe(fuzzCase)}: {response.Status} {error?.Code}: {error?.ErrorText} ({contentType})");
            }

            return;
        }

        try
        {
            using var message = new HttpResponseMessage { Content = new ByteArrayContent(response.Body) };
            message.Content.Headers.ContentType = MediaTypeHeaderValue.Parse(contentType!);
            var end = fuzzCase.Target == StreamMutator.Sum
                ? (await StreamWire.ReadAllAsync<Summary>(message)).End
                : (await StreamWire.ReadAllAsync<Tick>(message)).End;
            if (end.Code is not ("OK" or "INVALID_ARGUMENT" or "RESOURCE_EXHAUSTED"))
            {
                report.Fail($"{Describe(fuzzCase)}: a stream that ended {end.Code}: {end.ErrorText}");
            }
        }
        catch (Exception ex)
        {
            report.Fail($"{Describe(fuzzCase)}: 200 with a stream that is not well-formed {contentType}: {ex.Message}");
        }
    }

    private async Task CheckAliveAsync(FuzzReport report)
    {
        using var response = await _server.Client.SendAsync(Wire.Post(StreamMutator.Count, new CountRequest { Count = 3 }, "application/json", StreamWire.Events));
        var (messages, end) = await StreamWire.ReadAllAsync<Tick>(response);
        if (messages.Count != 3 || end.Code != "OK")
        {
            report.Fail($"After a batch, a valid stream gave {messages.Count} messages and ended {end.Code}.");
        }
    }

    private static string Describe(FuzzCase fuzzCase) =>
        $"{fuzzCase.Verb} {fuzzCase.Target} [{fuzzCase.ContentType}, accept {fuzzCase.Accept ?? "-"}, {fuzzCase.Body?.Length ?? 0} bytes, {fuzzCase.Mutation}]";
}
