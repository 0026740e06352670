using Google.Protobuf;
using ProtoHttp.FunctionalTests.Infrastructure;
using ProtoService;

namespace ProtoHttp.FunctionalTests.Hardening;

/// <summary>
/// Sends cases to the server in batches over a few raw connections and judges every answer: never a 5xx (but the
/// sample's deliberate one, see <see cref="IsSearchBlankQueryFailure"/>), never a hang, every non-200 an ErrorResult
/// in the format accepted, with the status and code the case calls for (<see cref="ExpectedRefusal"/>), every 200
/// well-formed, no Error log; after each batch the server must answer a valid call.
/// </summary>
public sealed class FuzzRunner(SampleServer server, IReadOnlyDictionary<string, MessageParser> responseParsers)
{
    private const int BatchSize = 250;
    private const int Connections = 4;
    private const int BodyLimit = 4 * 1024 * 1024; // The sample's services' and the specimen's: the default.

    /// <param name="observe">Also shown every answered case, on its connection (which it may use for requests of its own).</param>
    public async Task<FuzzReport> RunAsync(string format, IEnumerable<FuzzCase> cases, Func<FuzzCase, RawResponse, RawHttpConnection, Task>? observe = null)
    {
        var report = new FuzzReport(format);
        foreach (var batch in cases.Chunk(BatchSize))
        {
            var errorsBefore = server.Logs.Errors.Count();
            var serviceFailuresBefore = report.ServiceFailures;
            var next = -1;
            await Task.WhenAll(Enumerable.Range(0, Connections).Select(async _ =>
            {
                using var connection = new RawHttpConnection(server.Http1Address);
                for (var i = Interlocked.Increment(ref next); i < batch.Length; i = Interlocked.Increment(ref next))
                {
                    if (await RunCaseAsync(connection, batch[i], report) is { } response && observe is not null)
                    {
                        await observe(batch[i], response, connection);
                    }
                }
            }));

            await CheckLogsAsync(report, errorsBefore, report.ServiceFailures - serviceFailuresBefore);
            await CheckAliveAsync(report);
        }

        return report;
    }

    private async Task<RawResponse?> RunCaseAsync(RawHttpConnection connection, FuzzCase fuzzCase, FuzzReport report)
    {
        var headers = new List<(string, string)>();
        if (fuzzCase.ContentType is { } type)
        {
            headers.Add(("Content-Type", type));
        }

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
            return null;
        }

        report.Count(response.Status);
        var contentType = response.Header("Content-Type");
        if (response.Status == 200)
        {
            var path = fuzzCase.Target.Split('?')[0];
            if (!ErrorBody.IsWellFormed(contentType, response.Body, responseParsers[path]))
            {
                report.Fail($"{Describe(fuzzCase)}: 200 with a body that is not well-formed {contentType}");
            }

            return response;
        }

        var error = ErrorBody.TryRead(contentType, response.Body);
        if (error is null)
        {
            report.Fail($"{Describe(fuzzCase)}: {response.Status} without a readable ErrorResult ({contentType}, {response.Body.Length} bytes)");
        }
        else if (IsSearchBlankQueryFailure(fuzzCase, response.Status, error))
        {
            report.CountServiceFailure();
        }
        else if (response.Status >= 500)
        {
            report.Fail($"{Describe(fuzzCase)}: {response.Status} {error.Code}: {error.ErrorText}");
        }
        else if (ExpectedRefusal(fuzzCase) is var (status, code) && (response.Status, error.Code) != (status, code))
        {
            report.Fail($"{Describe(fuzzCase)}: {response.Status} {error.Code}, where {status} {code} was due: {error.ErrorText}");
        }
        else if (fuzzCase.Accept is { } accepted && !string.Equals(MediaType(contentType), accepted, StringComparison.OrdinalIgnoreCase))
        {
            report.Fail($"{Describe(fuzzCase)}: the error came as {contentType}, where the request accepted only {accepted}");
        }

        return response;
    }

    /// <summary>
    /// What a refused case must answer (docs/protocol.md sections 5 and 7): the mutators keep to media types the server
    /// reads and writes, so never 415 or 406; a body over the sample's 4 MiB limit is 413 RESOURCE_EXHAUSTED, and any
    /// other refusal is the request's fault, 400 INVALID_ARGUMENT.
    /// </summary>
    private static (int Status, string Code) ExpectedRefusal(FuzzCase fuzzCase) =>
        fuzzCase.Body?.Length > BodyLimit ? (413, "RESOURCE_EXHAUSTED") : (400, "INVALID_ARGUMENT");

    private static string? MediaType(string? contentType) => contentType?.Split(';')[0].Trim();

    /// <summary>
    /// The sample's Search deliberately throws a plain exception for a blank query (to keep a real path to 500), and a
    /// mutation can produce a well-formed request with one. docs/protocol.md section 7: a 500 means the service failed on
    /// well-formed input. Such answers are counted apart, and each must match one Error log of exactly that exception.
    /// </summary>
    public static bool IsSearchBlankQueryFailure(FuzzCase fuzzCase, int status, ErrorResult? error) =>
        status == 500
        && fuzzCase.Target.StartsWith("/ProtoService.proto/Search", StringComparison.Ordinal)
        && error is { Code: "UNKNOWN", ErrorText: "The service failed to handle the call." };

    private async Task CheckLogsAsync(FuzzReport report, int errorsBefore, int serviceFailures)
    {
        // Log lines can trail the answers by a moment: the requests' ends are what says all of them are in.
        await server.Logs.WhenRequestsEndedAsync();
        var errors = server.Logs.Errors.Skip(errorsBefore).ToList();
        var deliberate = errors.Count(e => e.EventId.Name == "ServiceFailed" && e.Exception is ArgumentException { Message: "The query is empty." });
        foreach (var entry in errors.Where(e => !(e.EventId.Name == "ServiceFailed" && e.Exception is ArgumentException { Message: "The query is empty." })))
        {
            report.Fail($"Error log: [{entry.Category}] {entry.Message} {entry.Exception}");
        }

        if (deliberate != serviceFailures)
        {
            report.Fail($"{serviceFailures} answers looked like Search's blank-query failure, but {deliberate} such Error logs were written.");
        }
    }

    private async Task CheckAliveAsync(FuzzReport report)
    {
        using var response = await server.Client.SendAsync(Wire.Post("/ProtoService.proto/Search", new SearchRequest { Query = "chai" }, "application/x-protobuf"));
        if (response.StatusCode != System.Net.HttpStatusCode.OK || (await Wire.ReadAsync<SearchResponse>(response)).Result.Count == 0)
        {
            report.Fail($"After a batch, a valid Search answered {(int)response.StatusCode} or found nothing.");
        }
    }

    private static string Describe(FuzzCase fuzzCase)
    {
        var target = fuzzCase.Target.Length > 100 ? fuzzCase.Target[..100] + "…" : fuzzCase.Target;
        return $"{fuzzCase.Verb} {target} [{fuzzCase.ContentType}, accept {fuzzCase.Accept ?? "-"}, {fuzzCase.Body?.Length ?? 0} bytes, {fuzzCase.Mutation}]";
    }
}
