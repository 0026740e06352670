using System.Buffers.Binary;
using System.Text;
using System.Text.Json;
using Google.Protobuf;
using ProtoHttp.FunctionalTests.Infrastructure;
using ProtoHttp.FunctionalTests.Protos.Streaming;
using Xunit.Abstractions;

namespace ProtoHttp.FunctionalTests.Hardening;

/// <summary>
/// Malformed Connect streaming requests (<see cref="ConnectStreamMutator"/>) at the Connect paths of a server-streaming,
/// a client-streaming and a bidirectional method, over HTTP/1.1 and h2c. Every answer is a 200 stream of well-formed
/// envelopes (compressed only under <c>Connect-Content-Encoding: gzip</c>) whose end-stream envelope names the client's
/// fault, or Connect's error JSON with 505 for a bidirectional call over HTTP/1.1; never a 5xx otherwise, never a hang,
/// never an Error log; the server answers a valid stream after every batch.
/// </summary>
public sealed class ConnectStreamingInputTests(ITestOutputHelper output) : IAsyncLifetime, IDisposable
{
    private const int BatchSize = 150;

    private static readonly string[] ClientFaults = ["invalid_argument", "resource_exhausted", "unimplemented"];

    private readonly System.Collections.Concurrent.ConcurrentDictionary<string, int> _endCodes = new();

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
    public async Task Envelopes()
    {
        var report = new FuzzReport("Connect streams");
        var cases = ConnectStreamMutator.Cases(new Random(6101), 600).ToList();
        Assert.Equal(600, cases.Count);
        await FuzzBatches.RunAsync(_server, cases, BatchSize,
            (connection, fuzz) => RunCaseAsync(connection, fuzz, report), () => CheckAliveAsync(report));
        await FuzzBatches.FinishAsync(_server, report, output,
            "End-stream codes: " + string.Join(", ", _endCodes.OrderBy(c => c.Key).Select(c => $"{c.Key}: {c.Value}")));

        Assert.Equal(cases.Count, report.Cases); // Every case sent is judged: all of them, not a floor.
        Assert.Empty(report.Failures);
        Assert.True(_endCodes.Count >= 5, "the cases should reach several outcomes, not one");
    }

    private async Task RunCaseAsync(RawHttpConnection connection, ConnectStreamCase fuzz, FuzzReport report)
    {
        var describe = $"{(fuzz.Http2 ? "h2c" : "HTTP/1.1")} POST {fuzz.Path} [{fuzz.Codec}, {fuzz.Body.Length} bytes, {fuzz.Mutation}]";
        int status;
        string? contentType;
        bool gzipped;
        byte[] body;
        try
        {
            if (fuzz.Http2)
            {
                using var response = await _calls.SendAsync(Http2Request(fuzz), http2: true);
                status = (int)response.StatusCode;
                contentType = response.Content.Headers.ContentType?.ToString();
                gzipped = StreamWire.Gzipped(response);
                body = await response.Content.ReadAsByteArrayAsync();
            }
            else
            {
                var response = await connection.SendAsync("POST", fuzz.Path, [("Content-Type", fuzz.Codec), .. fuzz.Headers], fuzz.Body);
                (status, contentType, gzipped, body) = (response.Status, response.Header("Content-Type"), response.Header("Connect-Content-Encoding") == "gzip", response.Body);
            }
        }
        catch (Exception ex) when (ex is IOException or System.Net.Sockets.SocketException or TimeoutException or HttpRequestException or TaskCanceledException)
        {
            report.Count(0);
            report.Fail($"{describe}: no answer ({ex.Message})");
            return;
        }

        report.Count(status);
        if (Judge(fuzz, status, contentType, gzipped, body) is { } verdict)
        {
            report.Fail($"{describe}: {verdict}");
        }
    }

    /// <returns>What is wrong with the answer, or <see langword="null"/>.</returns>
    private string? Judge(ConnectStreamCase fuzz, int status, string? contentType, bool gzipped, byte[] body)
    {
        if (status == 505 && fuzz.Path == ConnectStreamCalls.Echo && !fuzz.Http2)
        {
            return ConnectErrorCode(contentType, body) == "unimplemented" ? null : $"505 without Connect's unimplemented error JSON ({contentType})";
        }

        if (status != 200)
        {
            return $"{status} {ConnectErrorCode(contentType, body)} ({contentType})";
        }

        if (contentType != fuzz.Codec)
        {
            return $"200 in {contentType}, not the request's {fuzz.Codec}";
        }

        var at = 0;
        while (true)
        {
            if (body.Length - at < 5)
            {
                return $"the stream ends {body.Length - at} bytes into an envelope header, with no end-stream envelope";
            }

            var flags = body[at];
            var length = BinaryPrimitives.ReadInt32BigEndian(body.AsSpan(at + 1));
            if (length < 0 || length > body.Length - at - 5)
            {
                return $"an envelope of {length} bytes where {body.Length - at - 5} are left";
            }

            var payload = body.AsSpan(at + 5, length).ToArray();
            at += 5 + length;
            if ((flags & ~0x03) != 0 || (flags & 0x01) != 0 && !gzipped)
            {
                return $"an envelope flagged 0x{flags:x2} (Connect-Content-Encoding gzip: {gzipped})";
            }

            payload = (flags & 0x01) != 0 ? ConnectWire.Gunzip(payload) : payload;
            if ((flags & 0x02) == 0)
            {
                if (!IsMessage(fuzz, payload))
                {
                    return "a response envelope that is not a message";
                }

                continue;
            }

            if (at != body.Length)
            {
                return $"{body.Length - at} bytes after the end-stream envelope";
            }

            return JudgeEnd(fuzz, payload);
        }
    }

    private string? JudgeEnd(ConnectStreamCase fuzz, byte[] payload)
    {
        try
        {
            using var end = JsonDocument.Parse(payload);
            if (!end.RootElement.TryGetProperty("error", out var error))
            {
                _endCodes.AddOrUpdate("ok", 1, (_, n) => n + 1);
                return null;
            }

            var code = error.GetProperty("code").GetString();
            _endCodes.AddOrUpdate(code ?? "null", 1, (_, n) => n + 1);
            var message = error.TryGetProperty("message", out var text) ? text.GetString() : "";
            var allowed = ClientFaults.Contains(code)
                || code == "internal" && message!.Contains("compressed flag", StringComparison.Ordinal)
                || code == "deadline_exceeded" && fuzz.Mutation.Contains("Connect-Timeout-Ms", StringComparison.Ordinal);
            return allowed ? null : $"a stream that ended {code}: {message}";
        }
        catch (Exception ex) when (ex is JsonException or KeyNotFoundException or InvalidOperationException)
        {
            return $"an end-stream envelope that is not Connect's JSON: {Encoding.UTF8.GetString(payload)}";
        }
    }

    private static bool IsMessage(ConnectStreamCase fuzz, byte[] payload)
    {
        MessageParser parser = fuzz.Path == ConnectStreamCalls.Sum ? Summary.Parser : Tick.Parser;
        try
        {
            if (fuzz.Codec == StreamWire.ConnectJson)
            {
                JsonParser.Default.Parse(Encoding.UTF8.GetString(payload), parser.ParseFrom([]).Descriptor);
            }
            else
            {
                parser.ParseFrom(payload);
            }

            return true;
        }
        catch (InvalidProtocolBufferException)
        {
            return false;
        }
    }

    private static string? ConnectErrorCode(string? contentType, byte[] body)
    {
        try
        {
            return contentType == "application/json" ? JsonDocument.Parse(body).RootElement.GetProperty("code").GetString() : null;
        }
        catch (Exception ex) when (ex is JsonException or KeyNotFoundException or InvalidOperationException)
        {
            return null;
        }
    }

    private static HttpRequestMessage Http2Request(ConnectStreamCase fuzz)
    {
        var request = ConnectStreamCalls.Post(fuzz.Path, fuzz.Body, fuzz.Codec);
        foreach (var (name, value) in fuzz.Headers)
        {
            request.Headers.TryAddWithoutValidation(name, value);
        }

        return request;
    }

    private async Task CheckAliveAsync(FuzzReport report)
    {
        using var response = await _server.Client.SendAsync(
            ConnectStreamCalls.Post(ConnectStreamCalls.Count, StreamWire.Envelope(new CountRequest { Count = 3 }, StreamWire.ConnectProto), StreamWire.ConnectProto));
        var (messages, end) = await StreamWire.ReadAllAsync<Tick>(response);
        if (messages.Count != 3 || end.Code != "OK")
        {
            report.Fail($"After a batch, a valid Connect stream gave {messages.Count} messages and ended {end.Code}.");
        }
    }
}
