using System.Net.Http.Headers;
using System.Text;
using Google.Protobuf;
using ProtoHttp.FunctionalTests.Infrastructure;
using ProtoHttp.FunctionalTests.Protos.Streaming;
using Xunit.Abstractions;

namespace ProtoHttp.FunctionalTests.Hardening;

/// <summary>
/// Malformed streaming requests against the real server on Kestrel (docs/protocol.md sections 7 and 10): every answer is a
/// 400, 413 or 415 ErrorResult, or a 200 stream whose last record names the client's fault, never a 5xx or an Error
/// log; the server answers a valid stream after every batch. Where the test knows the answer from its own reading of
/// the body (envelopes by hand and Google.Protobuf, JSON by <see cref="JsonReference"/>, media types by section 10),
/// the answer must be it.
/// </summary>
public sealed class StreamingInputTests(ITestOutputHelper output) : IAsyncLifetime
{
    private const int BatchSize = 200;

    private static readonly JsonReference Reference = new(ProtoHttp.FormatOptions.Default.IgnoreUnknownFields, ProtoHttp.FormatOptions.Default.MaxDepth);
    private static readonly UTF8Encoding StrictUtf8 = new(encoderShouldEmitUTF8Identifier: false, throwOnInvalidBytes: true);

    private SampleServer _server = null!;
    private int _judged;

    public async Task InitializeAsync() => _server = await SampleServer.StartAsync();

    public async Task DisposeAsync() => await _server.DisposeAsync();

    /// <summary>Also every protobuf envelope body (276 of these seeds' cases) judged against the test's own reading of it (<see cref="EnvelopeVerdict"/>).</summary>
    [Fact]
    public async Task Envelopes()
    {
        await RunAsync("envelopes", StreamMutator.EnvelopeCases(new Random(5101), 600), 600);
        Assert.True(_judged >= 250, $"only {_judged} protobuf envelope bodies were judged against the test's own reading");
    }

    /// <summary>
    /// SSE and NDJSON text as request bodies (docs/protocol.md section 10: not requests, 415 as their media types, 400
    /// as JSON or envelopes): each refused with the status due naming the media type or the envelope's flags, and each
    /// that is a JSON request after all (one line of a CountRequest) answered as Google.Protobuf reads it.
    /// </summary>
    [Fact]
    public async Task EventAndLineShapedBodies()
    {
        var cases = StreamMutator.EventAndLineShapedCases(new Random(5102), 400).ToList();
        await RunAsync("SSE/NDJSON-shaped bodies", cases, 400);
        var due = cases.Select(DueOf).Where(d => d is not null).ToList();
        output.WriteLine($"judged: {due.Count} ({due.Count(d => d!.Answer is not null)} streams compared, {due.Count(d => d!.Status == 415)} 415s, {due.Count(d => d!.Status == 400)} 400s)");
        Assert.True(due.Count >= 350, $"only {due.Count} of the 400 shaped bodies were judged");
        Assert.True(due.Count(d => d!.Answer is not null) >= 30, "too few shaped bodies were answered streams compared with Google.Protobuf's reading");
        Assert.True(due.Count(d => d!.Status is 400 or 413) >= 50, "too few shaped bodies were due a 400 or 413");
    }

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
        var due = cases.Count(c => DueOf(c) is not null);
        if (due > 0)
        {
            output.WriteLine($"Bodies judged against the test's own reading: {_judged} of {due}");
        }

        Assert.Equal(due, _judged);
    }

    private async Task RunCaseAsync(RawHttpConnection connection, FuzzCase fuzzCase, FuzzReport report)
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
        var due = DueOf(fuzzCase);
        if (response.Status != 200)
        {
            var error = ErrorBody.TryRead(contentType, response.Body);
            if (error is null || response.Status is not (400 or 413 or 415))
            {
                report.Fail($"{Describe(fuzzCase)}: {response.Status} {error?.Code}: {error?.ErrorText} ({contentType})");
            }
            else if (due is { Answer: not null })
            {
                report.Fail($"{Describe(fuzzCase)}: a body the test reads as valid was refused: {response.Status} {error.ErrorText}");
            }
            else if (due is { Status: { } status, Code: var code } && (response.Status, error.Code) != (status, code))
            {
                report.Fail($"{Describe(fuzzCase)}: {response.Status} {error.Code}, where {status} {code} was due: {error.ErrorText}");
            }
            else if (due?.Named.FirstOrDefault(n => !error.ErrorText.Contains(n, StringComparison.Ordinal)) is { } missing)
            {
                report.Fail($"{Describe(fuzzCase)}: the refusal does not name '{missing}': {error.ErrorText}");
            }

            Judged(due);
            return;
        }

        if (due is { Status: { } refusal })
        {
            report.Fail($"{Describe(fuzzCase)}: 200 where {refusal} was due, before anything was written");
            Judged(due);
            return;
        }

        try
        {
            using var message = new HttpResponseMessage { Content = new ByteArrayContent(response.Body) };
            message.Content.Headers.ContentType = MediaTypeHeaderValue.Parse(contentType!);
            var (messages, end) = fuzzCase.Target == StreamMutator.Sum ? Read(await StreamWire.ReadAllAsync<Summary>(message)) : Read(await StreamWire.ReadAllAsync<Tick>(message));
            if (end.Code is not ("OK" or "INVALID_ARGUMENT" or "RESOURCE_EXHAUSTED"))
            {
                report.Fail($"{Describe(fuzzCase)}: a stream that ended {end.Code}: {end.ErrorText}");
            }
            else if (due is { Answer: { } answer } && (end.Code != "OK" || !messages.SequenceEqual(answer)))
            {
                report.Fail($"{Describe(fuzzCase)}: ended {end.Code} ({end.ErrorText}) with [{string.Join(", ", messages)}], where the test reads a valid body due [{string.Join(", ", answer)}]");
            }
            else if (due is { Fault: { } fault } && end.Code == "OK")
            {
                report.Fail($"{Describe(fuzzCase)}: ended OK with [{string.Join(", ", messages)}], where the test finds the body at fault: {fault}");
            }

            Judged(due);
        }
        catch (Exception ex)
        {
            report.Fail($"{Describe(fuzzCase)}: 200 with a stream that is not well-formed {contentType}: {ex.Message}");
        }
    }

    private static (List<IMessage> Messages, StreamEnd End) Read<T>((List<T> Messages, StreamEnd End) stream)
        where T : IMessage => (stream.Messages.Cast<IMessage>().ToList(), stream.End);

    private void Judged(Due? due)
    {
        if (due is not null)
        {
            Interlocked.Increment(ref _judged);
        }
    }

    /// <summary>
    /// What a protobuf envelope case is due, from the test's own reading of its body (<see cref="EnvelopeVerdict"/>):
    /// the messages Sum or Count answers (Sum: the count and sequences of the ticks; Count: that many ticks, numbered
    /// from 0, for a request that asks for nothing else), or a refusal; null where the test does not judge (a
    /// JSON body, a Count body of other than one request, a tick that asks Sum to fail).
    /// </summary>
    private static Due? DueOf(FuzzCase fuzzCase)
    {
        if (fuzzCase.Mutation == StreamMutator.Shaped)
        {
            return ShapedDueOf(fuzzCase);
        }

        switch (fuzzCase.Envelopes)
        {
            case { Fault: { } fault }:
                return new Due(null, fault);
            case { Messages: { } messages } when fuzzCase.Target == StreamMutator.Sum:
                var sent = messages.Cast<Tick>().ToList();
                return sent.Any(t => t.Text.StartsWith("fail:", StringComparison.Ordinal))
                    ? null
                    : new Due([new Summary { Count = sent.Count, Sequences = { sent.Select(t => t.Sequence) } }], null);
            case { Messages: [CountRequest { Count: >= 0 and <= 100 } request] } when request.Equals(new CountRequest { Count = request.Count }):
                return new Due([.. Enumerable.Range(0, request.Count).Select(i => (IMessage)new Tick { Sequence = i })], null);
            default:
                return null;
        }
    }

    /// <summary>
    /// What an SSE- or NDJSON-shaped body is due (docs/protocol.md section 10): Sum (a client stream) reads only
    /// envelopes, so any other type is 415 naming it, and as <c>connect+json</c> the text's first byte is an envelope's
    /// flags, refused as such once a whole header is there (an empty body is no message: a summary of none); Count (a server stream) reads one
    /// envelope, or a unary body: as JSON, what <see cref="JsonReference"/> reads (or refuses), and 415 naming any
    /// type that is no request format. Null where the test does not judge (a first byte 0x00, a JSON departure, a
    /// CountRequest that asks for more than ticks).
    /// </summary>
    private static Due? ShapedDueOf(FuzzCase fuzzCase)
    {
        var mediaType = fuzzCase.ContentType!.Split(';')[0].Trim();
        var body = fuzzCase.Body!;
        var sum = fuzzCase.Target == StreamMutator.Sum;
        switch (mediaType)
        {
            case StreamWire.ConnectJson when body.Length == 0:
                return sum ? new Due([new Summary()], null) : Refused(400);
            case StreamWire.ConnectJson when body.Length < 5:
                return Refused(400);
            case StreamWire.ConnectJson:
                return body[0] == 0 ? null : Refused(400, $"flags 0x{body[0]:x2}");
            case "application/json" when !sum:
                return JsonCountDue(body);
            default:
                return Refused(415, mediaType);
        }
    }

    private static Due? JsonCountDue(byte[] body)
    {
        if (body.Length == 0)
        {
            return new Due([], null); // The codec reads an empty body as the empty message: zero ticks.
        }

        string json;
        try
        {
            json = StrictUtf8.GetString(body);
        }
        catch (DecoderFallbackException)
        {
            return Refused(400);
        }

        if (JsonDepartures.Find(json, CountRequest.Descriptor) is { DuplicateField: true } or { Base64Url: true } or { NullOneofMember: true })
        {
            return null;
        }

        return Reference.Parse(json, CountRequest.Descriptor) switch
        {
            (CountRequest { Count: >= 0 and <= 100 } request, _) when request.Equals(new CountRequest { Count = request.Count }) =>
                new Due([.. Enumerable.Range(0, request.Count).Select(i => (IMessage)new Tick { Sequence = i })], null),
            (null, _) => Refused(400),
            _ => null,
        };
    }

    private static Due Refused(int status, params string[] named) => new(null, $"refused {status}", status, "INVALID_ARGUMENT", named);

    /// <param name="Status">Where a refusal before anything is written is due: its status and <paramref name="Code"/>.</param>
    /// <param name="Named">What that refusal's text must quote.</param>
    private sealed record Due(IReadOnlyList<IMessage>? Answer, string? Fault, int? Status = null, string? Code = null, IReadOnlyList<string>? Named = null)
    {
        public IReadOnlyList<string> Named { get; } = Named ?? [];
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
