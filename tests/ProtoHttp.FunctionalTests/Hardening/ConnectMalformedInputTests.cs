using System.Text;
using System.Text.Json;
using Google.Protobuf;
using Microsoft.AspNetCore.Builder;
using ProtoHttp.FunctionalTests.Infrastructure;
using ProtoService;
using Xunit.Abstractions;

namespace ProtoHttp.FunctionalTests.Hardening;

/// <summary>
/// Malformed Connect requests, from fixed seeds, at the Connect paths of the sample and specimen services: mutated
/// protobuf and JSON bodies, sent plain, gzipped, as broken gzip, as gzip bombs or with unknown encodings, and GETs
/// with hostile query parameters; and generated Specimens, valid or with one fault, as JSON bodies and as GETs. Every
/// answer is 200 or Connect's error JSON with a 4xx/501 status, never a 5xx (but the sample's deliberate one), never
/// a hang, never an Error log; the server answers a valid call afterwards. Where the test knows the answer without the
/// server's codecs (<see cref="ConnectDue"/>), the answer must be it: the message Google.Protobuf reads, echoed equal,
/// or the refusal due, quoting what was wrong.
/// </summary>
public sealed class ConnectMalformedInputTests(ITestOutputHelper output) : IAsyncLifetime
{
    private static readonly Dictionary<string, string> ConnectPaths = new()
    {
        [FuzzSeeds.Search] = "/ProtoService.SearchService/Search",
        [FuzzSeeds.Roundtrip] = "/Northwind.NorthwindService/Roundtrip",
        [FuzzSeeds.GetOrders] = "/Northwind.NorthwindService/GetOrders",
        [FuzzSeeds.Echo] = "/protohttp.hardening.Hardening/Echo",
    };

    private static readonly string[] ConnectCodeNames =
    [
        "canceled", "unknown", "invalid_argument", "deadline_exceeded", "not_found", "already_exists", "permission_denied",
        "resource_exhausted", "failed_precondition", "aborted", "out_of_range", "unimplemented", "internal", "unavailable",
        "data_loss", "unauthenticated",
    ];

    private static readonly JsonReference Reference = new(ProtoHttp.FormatOptions.Default.IgnoreUnknownFields, ProtoHttp.FormatOptions.Default.MaxDepth);

    private SampleServer _server = null!;
    private FuzzSeeds _seeds = null!;
    private int _compared;

    public async Task InitializeAsync()
    {
        _server = await SampleServer.StartAsync(map: app => app.MapProtoService<SpecimenService>());
        _seeds = await FuzzSeeds.CreateAsync(_server);
    }

    public async Task DisposeAsync() => await _server.DisposeAsync();

    /// <summary>
    /// Also every body to Echo that reaches the codec as sent, judged against Google.Protobuf (<see cref="ConnectDue"/>):
    /// protobuf by its parser, JSON by <see cref="JsonReference"/> where no deliberate departure applies.
    /// </summary>
    [Fact]
    public async Task PostBodies()
    {
        var cases = PostCases(new Random(6001), 1_200).ToList();
        await RunAsync("Connect POST", cases, 1_200);
        AssertJudged(cases, "application/proto", 60);
        AssertJudged(cases, "application/json", 25);
    }

    [Fact]
    public Task GetQueries() => RunAsync("Connect GET", GetCases(new Random(6002), 800), 800);

    /// <summary>
    /// Generated Specimens as Google.Protobuf writes them in JSON, to Echo: each valid one echoed equal, each with a
    /// value made wrong or an unknown name refused 400 invalid_argument quoting the field's name.
    /// </summary>
    [Fact]
    public async Task GeneratedJsonBodiesAreEchoedEqualOrRefusedNamingTheField()
    {
        var cases = ConnectEchoCases.JsonPosts(new Random(6003), Reference, 400).ToList();
        await RunAsync("Connect JSON POST, generated", cases, 400, outcomes: 2);
        AssertJudged(cases, null, 400, answers: 220, refusals: 80);
    }

    /// <summary>
    /// Generated Specimens as Connect GETs to SafeEcho (JSON percent-encoded or base64url, protobuf base64url, gzip or
    /// not): each valid one echoed equal; each with a value, a name or a query parameter made wrong refused with the
    /// status and code due, quoting the parameter or the field.
    /// </summary>
    [Fact]
    public async Task GeneratedGetsAreEchoedEqualOrRefusedNamingTheParameter()
    {
        var cases = ConnectEchoCases.Gets(new Random(6004), Reference, 500).ToList();
        await RunAsync("Connect GET, generated", cases, 500);
        AssertJudged(cases, null, 500, answers: 250, refusals: 120);
    }

    /// <summary>Every case with a known answer was judged, and at least the given numbers of them: answers compared, refusals checked.</summary>
    private void AssertJudged(List<ConnectCase> cases, string? contentType, int floor, int answers = 0, int refusals = 0)
    {
        var due = cases.Where(c => c.Due is not null && (contentType is null || c.ContentType == contentType)).ToList();
        output.WriteLine($"judged against Google.Protobuf{(contentType is null ? "" : $" ({contentType})")}: {due.Count} ({due.Count(c => c.Due!.Echo is not null)} answers compared, {due.Count(c => c.Due!.Echo is null)} refusals)");
        Assert.True(due.Count >= floor, $"only {due.Count} cases{(contentType is null ? "" : $" in {contentType}")} were judged against Google.Protobuf");
        Assert.True(due.Count(c => c.Due!.Echo is not null) >= answers, "too few answers were compared");
        Assert.True(due.Count(c => c.Due!.Echo is null) >= refusals, "too few refusals were checked");
    }

    private IEnumerable<ConnectCase> PostCases(Random random, int count)
    {
        for (var i = 0; i < count; i++)
        {
            var json = random.Next(2) == 0;
            var (path, body, mutation) = json ? JsonCase(random) : ProtobufCase(random);
            var contentType = json ? random.Pick(["application/json", "application/json; charset=utf-8", "application/json; charset=utf-16"]) : "application/proto";
            var (encoded, encoding, how) = Encode(random, body);
            yield return new ConnectCase("POST", ConnectPaths[path], contentType, encoding, encoded, $"{mutation}, {how}")
            {
                // Within the 4 MiB limit, so that only the parser's verdict decides.
                Due = path != FuzzSeeds.Echo || body.Length > 4 * 1024 * 1024 || how is not ("plain" or "identity" or "gzip") ? null
                    : json ? contentType.Contains("utf-16", StringComparison.Ordinal) ? null : ConnectDue.OfJson(Reference, body)
                    : ConnectDue.OfProtobuf(body),
            };
        }
    }

    private (string Path, byte[] Body, string Mutation) ProtobufCase(Random random)
    {
        var (path, seed) = random.Pick(_seeds.Protobuf);
        var (body, mutation) = ProtobufMutator.Mutate(random, seed);
        return (path, body, mutation);
    }

    private (string Path, byte[] Body, string Mutation) JsonCase(Random random)
    {
        var (path, seed) = random.Pick(_seeds.Json);
        var (body, mutation) = JsonMutator.Mutate(random, seed);
        return (path, body, mutation);
    }

    private static (byte[] Body, string? Encoding, string How) Encode(Random random, byte[] body) => random.Next(8) switch
    {
        0 => (ConnectWire.Gzip(body), "gzip", "gzip"),
        1 => (Truncated(ConnectWire.Gzip(body)), "gzip", "truncated gzip"),
        2 => (body, "gzip", "not gzip"),
        3 => (ConnectWire.Gzip(new byte[8 * 1024 * 1024]), "gzip", "gzip bomb (8 MiB of zeros)"),
        4 => (body, random.Pick(["br", "deflate", "zstd", "GZIP2", ""]), "unknown encoding"),
        5 => (body, "identity", "identity"),
        _ => (body, null, "plain"),
    };

    private IEnumerable<ConnectCase> GetCases(Random random, int count)
    {
        string[] encodings = ["json", "proto", "xml", "", "JSON", "protobuf"];
        string[] compressions = ["gzip", "identity", "br", ""];
        for (var i = 0; i < count; i++)
        {
            var json = random.Next(2) == 0;
            var (path, body, mutation) = json ? JsonCase(random) : ProtobufCase(random);
            var parameters = new List<string>();
            var base64 = !json || random.Next(3) == 0;
            var compressed = random.Next(4) == 0;
            var message = compressed ? ConnectWire.Gzip(body) : body;
            var text = base64 || compressed
                ? MangleBase64(random, Convert.ToBase64String(message).TrimEnd('=').Replace('+', '-').Replace('/', '_'))
                : Uri.EscapeDataString(Encoding.UTF8.GetString(body));
            if (random.Next(10) > 0)
            {
                parameters.Add("connect=" + random.Pick(["v1", "v1", "v2", ""]));
            }

            if (random.Next(10) > 0)
            {
                parameters.Add("encoding=" + (random.Next(5) == 0 ? random.Pick(encodings) : json ? "json" : "proto"));
            }

            if (base64 || compressed)
            {
                parameters.Add("base64=" + random.Pick(["1", "1", "1", "0", "true", "2"]));
            }

            if (compressed || random.Next(10) == 0)
            {
                parameters.Add("compression=" + (compressed ? "gzip" : random.Pick(compressions)));
            }

            if (random.Next(12) > 0)
            {
                parameters.Add("message=" + text);
            }

            if (random.Next(10) == 0)
            {
                parameters.Add(random.Pick(["message=", "encoding=json&encoding=proto", "message=%ZZ", "base64", "=", "&&"]));
            }

            var ordered = parameters.OrderBy(_ => random.Next()).ToList();
            // GET is only for GetOrders (NO_SIDE_EFFECTS); the others must refuse it, whatever the query.
            var target = random.Next(4) == 0 ? ConnectPaths[path] : ConnectPaths[FuzzSeeds.GetOrders];
            yield return new ConnectCase("GET", $"{target}?{string.Join('&', ordered)}", null, null, null, $"{mutation}, get");
        }
    }

    private static string MangleBase64(Random random, string text) => random.Next(6) switch
    {
        0 => text + "==",
        1 => text.Replace('-', '+'),
        2 => text.Length > 2 ? text[..^1] : text,
        3 => text + "*",
        _ => text,
    };

    private async Task RunAsync(string name, IEnumerable<ConnectCase> generated, int requested, int outcomes = 4)
    {
        var cases = generated.ToList();
        Assert.Equal(requested, cases.Count);
        var failures = new List<string>();
        var statuses = new SortedDictionary<int, int>();
        var deliberate = 0;
        foreach (var batch in cases.Chunk(200))
        {
            var errorsBefore = _server.Logs.Errors.Count();
            var deliberateBefore = deliberate;
            var next = -1;
            await Task.WhenAll(Enumerable.Range(0, 4).Select(async _ =>
            {
                using var connection = new RawHttpConnection(_server.Http1Address);
                for (var i = Interlocked.Increment(ref next); i < batch.Length; i = Interlocked.Increment(ref next))
                {
                    var verdict = await JudgeAsync(connection, batch[i]);
                    lock (statuses)
                    {
                        statuses[verdict.Status] = statuses.GetValueOrDefault(verdict.Status) + 1;
                        deliberate += verdict.Deliberate ? 1 : 0;
                        if (verdict.Failure is { } failure)
                        {
                            failures.Add(failure);
                        }
                    }
                }
            }));

            await _server.Logs.WhenRequestsEndedAsync(); // Log lines can trail the answers by a moment; not the requests' ends.
            var errors = _server.Logs.Errors.Skip(errorsBefore).ToList();
            var expected = errors.Count(e => e.EventId.Name == "ServiceFailed" && e.Exception is ArgumentException { Message: "The query is empty." });
            failures.AddRange(errors.Where(e => !(e.EventId.Name == "ServiceFailed" && e.Exception is ArgumentException)).Select(e => $"Error log: {e.Message} {e.Exception}"));
            if (expected != deliberate - deliberateBefore)
            {
                failures.Add($"{deliberate - deliberateBefore} answers looked like Search's blank-query failure, but {expected} such Error logs were written.");
            }

            using var alive = await _server.Client.SendAsync(Wire.Post("/ProtoService.SearchService/Search", new SearchRequest { Query = "chai" }, "application/proto"));
            if (alive.StatusCode != System.Net.HttpStatusCode.OK)
            {
                failures.Add($"After a batch, a valid Connect Search answered {(int)alive.StatusCode}.");
            }
        }

        output.WriteLine($"{name}: {statuses.Values.Sum()} cases; {string.Join(", ", statuses.Select(s => $"{s.Key}: {s.Value}"))}; {deliberate} deliberate; {failures.Count} failures");
        failures.Take(30).ToList().ForEach(output.WriteLine);
        // Every case is answered and judged (a case without an answer is a failure), so all of them count, not a floor.
        Assert.Equal(cases.Count, statuses.Values.Sum());
        // Every case whose answer is known is judged against it.
        Assert.Equal(cases.Count(c => c.Due is not null), _compared);
        Assert.True(statuses.Count >= outcomes, "the cases should reach several outcomes, not one");
        Assert.Empty(failures);
    }

    private async Task<(int Status, bool Deliberate, string? Failure)> JudgeAsync(RawHttpConnection connection, ConnectCase fuzz)
    {
        var headers = new List<(string, string)>();
        if (fuzz.ContentType is { } type)
        {
            headers.Add(("Content-Type", type));
        }

        if (fuzz.ContentEncoding is { } encoding)
        {
            headers.Add(("Content-Encoding", encoding));
        }

        var describe = $"{fuzz.Verb} {(fuzz.Target.Length > 120 ? fuzz.Target[..120] + "…" : fuzz.Target)} [{fuzz.ContentType}, {fuzz.ContentEncoding ?? "-"}, {fuzz.Body?.Length ?? 0} bytes, {fuzz.Mutation}]";
        RawResponse response;
        try
        {
            response = await connection.SendAsync(fuzz.Verb, fuzz.Target, headers, fuzz.Body);
        }
        catch (Exception ex) when (ex is IOException or System.Net.Sockets.SocketException or TimeoutException)
        {
            return (0, false, $"{describe}: no answer ({ex.Message})");
        }

        if (fuzz.Due is { } due)
        {
            Interlocked.Increment(ref _compared);
            if (due.Judge(response, Reference) is { } wrong)
            {
                return (response.Status, false, $"{describe}: {wrong}");
            }
        }

        if (response.Status == 200)
        {
            return (200, false, null);
        }

        if (response.Status == 414 && fuzz.Verb == "GET" && fuzz.Target.Length > 8 * 1024)
        {
            // Kestrel's own limit on the request line (8 KiB) answers before any endpoint runs; Connect clients send
            // messages that large as POSTs.
            return (414, false, null);
        }

        string? code = null, message = null;
        try
        {
            var error = JsonDocument.Parse(response.Body).RootElement;
            code = error.GetProperty("code").GetString();
            message = error.TryGetProperty("message", out var text) ? text.GetString() : null;
        }
        catch (Exception ex) when (ex is JsonException or KeyNotFoundException or InvalidOperationException)
        {
        }

        if (response.Header("Content-Type") != "application/json" || code is null || !ConnectCodeNames.Contains(code))
        {
            return (response.Status, false, $"{describe}: {response.Status} without Connect's error JSON");
        }

        var deliberate = response.Status == 500 && fuzz.Target.StartsWith("/ProtoService.SearchService/Search", StringComparison.Ordinal)
            && code == "unknown" && message == "The service failed to handle the call.";
        var allowed = response.Status is 400 or 405 or 415 or 429 or 501 || deliberate;
        return (response.Status, deliberate, allowed ? null : $"{describe}: unexpected {response.Status} {code}: {message}");
    }

    private static byte[] Truncated(byte[] data) => data[..(data.Length / 2)];
}
