using System.Buffers.Binary;
using System.Collections.Concurrent;
using System.Text;
using System.Text.RegularExpressions;
using Google.Protobuf;
using ProtoHttp.FunctionalTests.Infrastructure;
using ProtoHttp.FunctionalTests.Protos;
using ProtoHttp.FunctionalTests.Protos.Streaming;
using Xunit.Abstractions;

namespace ProtoHttp.FunctionalTests.Hardening;

/// <summary>
/// Malformed gRPC-Web requests (<see cref="GrpcWebMutator"/>) at a unary, a server-streaming and a client-streaming
/// method, over HTTP/1.1 and h2c. Every answer is what the case's <see cref="GrpcWebExpectation"/> says: a 415 for a
/// codec the server lacks or a method gRPC-Web cannot call; otherwise 200 in the request's type (base64 for the text
/// types, each frame its own padded chunk), never compressed, with message frames that parse, then exactly one trailers
/// frame of well-formed lines whose <c>grpc-status</c> is the one the rules give, and, on success, exactly the messages
/// the service answers (Echo's: what Google.Protobuf reads from the frame). Never a 5xx, never a hang, never an Error
/// log; the server answers a valid call after every batch.
/// </summary>
public sealed class GrpcWebInputTests(ITestOutputHelper output) : IAsyncLifetime, IDisposable
{
    private const int Cases = 800;
    private const int BatchSize = 200;

    private readonly ConcurrentDictionary<string, int> _outcomes = new();

    private SampleServer _server = null!;
    private ConnectStreamCalls _calls = null!;

    public async Task InitializeAsync()
    {
        _server = await SampleServer.StartAsync();
        _calls = new ConnectStreamCalls(_server);
        _calls.Http2.Timeout = TimeSpan.FromSeconds(15);
    }

    public async Task DisposeAsync() => await _server.DisposeAsync();

    public void Dispose() => _calls.Dispose();

    [Fact]
    public async Task Frames()
    {
        var report = new FuzzReport("gRPC-Web");
        var cases = GrpcWebMutator.Cases(new Random(7101), Cases).ToList();
        Assert.Equal(Cases, cases.Count);
        await FuzzBatches.RunAsync(_server, cases, BatchSize,
            (connection, fuzz) => RunCaseAsync(connection, fuzz, report), () => CheckAliveAsync(report));
        await FuzzBatches.FinishAsync(_server, report, output,
            "Outcomes: " + string.Join(", ", _outcomes.OrderBy(c => c.Key, StringComparer.Ordinal).Select(c => $"{c.Key}: {c.Value}")));

        Assert.Equal(cases.Count, report.Cases); // Every case sent is judged: all of them, not a floor.
        Assert.Empty(report.Failures);
        // The cases reach every outcome the rules have: success, each request fault, the refusal. (A deadline past at
        // once is 4 or, when the call outran its timer, the call's own outcome: not required.)
        Assert.Superset(new HashSet<string> { "0", "3", "8", "12", "415" }, _outcomes.Keys.ToHashSet());
        Assert.True(_outcomes["0"] >= Cases / 5, "a fair share of the cases should be read and answered, not all refused");
    }

    private async Task RunCaseAsync(RawHttpConnection connection, GrpcWebCase fuzz, FuzzReport report)
    {
        var describe = $"{(fuzz.Http2 ? "h2c" : "HTTP/1.1")} POST {fuzz.Path} [{fuzz.ContentType}, {fuzz.Body.Length} bytes, {fuzz.Mutation}]";
        GrpcWebAnswer answer;
        try
        {
            answer = fuzz.Http2 ? await SendHttp2Async(fuzz) : await SendHttp1Async(connection, fuzz);
        }
        catch (Exception ex) when (ex is IOException or System.Net.Sockets.SocketException or TimeoutException or HttpRequestException or TaskCanceledException)
        {
            report.Count(0);
            report.Fail($"{describe}: no answer ({ex.Message})");
            return;
        }

        report.Count(answer.Status);
        if (Judge(fuzz, answer) is { } verdict)
        {
            report.Fail($"{describe}: {verdict}; expected {fuzz.Expected}");
        }
    }

    private static async Task<GrpcWebAnswer> SendHttp1Async(RawHttpConnection connection, GrpcWebCase fuzz)
    {
        var response = await connection.SendAsync("POST", fuzz.Path, [("Content-Type", fuzz.ContentType), .. fuzz.Headers], fuzz.Body);
        return new GrpcWebAnswer(response.Status, response.Header("Content-Type"), response.Header("grpc-status"), response.Header("grpc-encoding"), response.Body);
    }

    private async Task<GrpcWebAnswer> SendHttp2Async(GrpcWebCase fuzz)
    {
        var content = new ByteArrayContent(fuzz.Body);
        content.Headers.TryAddWithoutValidation("Content-Type", fuzz.ContentType);
        using var request = new HttpRequestMessage(HttpMethod.Post, fuzz.Path) { Content = content };
        foreach (var (name, value) in fuzz.Headers)
        {
            request.Headers.TryAddWithoutValidation(name, value);
        }

        using var response = await _calls.SendAsync(request, http2: true);
        return new GrpcWebAnswer(
            (int)response.StatusCode,
            response.Content.Headers.TryGetValues("Content-Type", out var type) ? type.Single() : null,
            response.Headers.TryGetValues("grpc-status", out var status) ? status.Single() : null,
            response.Headers.TryGetValues("grpc-encoding", out var encoding) ? encoding.Single() : null,
            await response.Content.ReadAsByteArrayAsync());
    }

    /// <returns>What is wrong with the answer, or <see langword="null"/>.</returns>
    private string? Judge(GrpcWebCase fuzz, GrpcWebAnswer answer)
    {
        var expected = fuzz.Expected;
        if (answer.Status != 200 || expected.HttpStatus != 200)
        {
            Tally(answer.Status.ToString(System.Globalization.CultureInfo.InvariantCulture));
            if (answer.Status != expected.HttpStatus)
            {
                return $"{answer.Status} ({answer.ContentType}, grpc-status {answer.GrpcStatus})";
            }

            // A gRPC-Web type ProtoHttp has no codec for is refused by gRPC-Web, with the status as a header too.
            var grpcWebType = fuzz.Path != ConnectStreamCalls.Sum && fuzz.ContentType.StartsWith("application/grpc-web", StringComparison.OrdinalIgnoreCase)
                && !fuzz.ContentType.StartsWith("application/grpc-webx", StringComparison.OrdinalIgnoreCase);
            return !grpcWebType || answer.GrpcStatus == "3" ? null : $"415 with grpc-status '{answer.GrpcStatus}', not 3";
        }

        if (answer.ContentType != fuzz.Type)
        {
            return $"200 in {answer.ContentType}, not the request's {fuzz.Type}";
        }

        if (answer.GrpcEncoding is not null)
        {
            return $"a grpc-encoding '{answer.GrpcEncoding}' on an answer that is never compressed";
        }

        var text = fuzz.Type.Contains("-text", StringComparison.Ordinal);
        if ((text ? DecodeText(answer.Body) : answer.Body) is not { } body)
        {
            return "a text answer that is not padded base64 chunks";
        }

        if (ReadFrames(body) is not ({ } messages, { } block))
        {
            return $"a body of {body.Length} bytes that is not message frames then one trailers frame last";
        }

        if (TrailersFault(block) is { } fault)
        {
            return fault;
        }

        var trailers = block.Split("\r\n", StringSplitOptions.RemoveEmptyEntries).Select(line => line.Split(": ", 2)).ToDictionary(pair => pair[0], pair => pair[1]);

        var code = int.Parse(trailers["grpc-status"], System.Globalization.CultureInfo.InvariantCulture);
        Tally(trailers["grpc-status"]);
        var message = trailers.GetValueOrDefault("grpc-message");
        if (!expected.Codes.Contains(code))
        {
            return $"grpc-status {code}: {Uri.UnescapeDataString(message ?? "")}";
        }

        List<IMessage> read;
        try
        {
            read = [.. messages.Select(m => Parse(fuzz, m))];
        }
        catch (Exception ex) when (ex is InvalidProtocolBufferException or InvalidJsonException or DecoderFallbackException)
        {
            return $"a message frame that is not a {(fuzz.Path == GrpcWebMutator.Echo ? "Tree" : "Tick")}: {ex.Message}";
        }

        return code switch
        {
            0 when !read.SequenceEqual(expected.Messages) => $"status 0 with {read.Count} messages, not the {expected.Messages.Length} the service answers",
            0 => null,
            4 when !read.SequenceEqual(expected.Messages.Take(read.Count)) => $"status 4 after {read.Count} messages that are not the service's first",
            4 => null,
            _ when read.Count > 0 => $"status {code} after {read.Count} messages",
            _ when string.IsNullOrEmpty(message) => $"status {code} without a grpc-message saying why",
            _ => null,
        };
    }

    private static IMessage Parse(GrpcWebCase fuzz, byte[] payload)
    {
        MessageParser parser = fuzz.Path == GrpcWebMutator.Echo ? Tree.Parser : Tick.Parser;
        return fuzz.Type.EndsWith("+json", StringComparison.Ordinal)
            ? JsonParser.Default.Parse(new UTF8Encoding(false, throwOnInvalidBytes: true).GetString(payload), parser.ParseFrom([]).Descriptor)
            : parser.ParseFrom(payload);
    }

    /// <summary>A text answer's bytes: padded base64 chunks back to back, nothing else; <see langword="null"/> if it is not that.</summary>
    private static byte[]? DecodeText(byte[] body)
    {
        var text = Encoding.Latin1.GetString(body);
        var chunks = Regex.Matches(text, "[^=]+=*").Select(m => m.Value).ToList();
        if (string.Concat(chunks) != text || chunks.Any(c => c.Length % 4 != 0 || !Regex.IsMatch(c, "^[A-Za-z0-9+/]+=*$")))
        {
            return null;
        }

        return [.. chunks.SelectMany(Convert.FromBase64String)];
    }

    /// <summary>The message frames and the trailers frame's block, if the body is frames ending with exactly one trailers frame.</summary>
    private static (List<byte[]>? Messages, string? Trailers) ReadFrames(byte[] body)
    {
        var messages = new List<byte[]>();
        for (var at = 0; body.Length - at >= 5;)
        {
            var flags = body[at];
            var length = BinaryPrimitives.ReadUInt32BigEndian(body.AsSpan(at + 1));
            if (length > body.Length - at - 5 || flags is not (0x00 or 0x80))
            {
                return (null, null);
            }

            var payload = body.AsSpan(at + 5, (int)length).ToArray();
            at += 5 + (int)length;
            if (flags == 0x80)
            {
                return at == body.Length ? (messages, Encoding.Latin1.GetString(payload)) : (null, null);
            }

            messages.Add(payload);
        }

        return (null, null);
    }

    /// <summary>Whether the trailers block is <c>name: value\r\n</c> lines, names lower-case, values printable ASCII, with a numeric grpc-status.</summary>
    private static string? TrailersFault(string block) =>
        !block.EndsWith("\r\n", StringComparison.Ordinal) ? $"a trailers block not ending with a line break: '{block}'"
        : block.Split("\r\n")[..^1].FirstOrDefault(line => !Regex.IsMatch(line, "^[a-z0-9._-]+: [ -~]*$")) is { } bad ? $"a trailers line that is not 'name: value': '{bad}'"
        : !Regex.IsMatch(block, "(^|\r\n)grpc-status: [0-9]{1,2}\r\n") ? $"a trailers block without a numeric grpc-status: '{block}'"
        : null;

    private void Tally(string outcome) => _outcomes.AddOrUpdate(outcome, 1, (_, n) => n + 1);

    private async Task CheckAliveAsync(FuzzReport report)
    {
        var tree = new Tree { Name = "alive" };
        using var response = await _server.Client.SendAsync(GrpcWebWire.Post(GrpcWebMutator.Echo, GrpcWebWire.Frame(tree)));
        var (messages, trailers) = GrpcWebWire.Read(await response.Content.ReadAsByteArrayAsync());
        if (trailers["grpc-status"] != "0" || messages.Count != 1 || !Tree.Parser.ParseFrom(messages[0]).Equals(tree))
        {
            report.Fail($"After a batch, a valid gRPC-Web Echo ended {trailers["grpc-status"]} with {messages.Count} messages.");
        }
    }

    private sealed record GrpcWebAnswer(int Status, string? ContentType, string? GrpcStatus, string? GrpcEncoding, byte[] Body);
}
