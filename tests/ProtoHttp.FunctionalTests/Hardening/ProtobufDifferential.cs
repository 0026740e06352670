using System.Collections.Concurrent;
using System.Globalization;
using Google.Protobuf;

namespace ProtoHttp.FunctionalTests.Hardening;

/// <summary>
/// The server's protobuf reading against Google.Protobuf's own parser (the generated <c>MessageParser</c>, run
/// in-process on the same bytes), case by case, from what the server answered over HTTP: a body the server read (200,
/// or the sample's deliberate 500 on a blank query) must be one the parser reads, into an equal message where the
/// method echoes its request, else into the same answer as the parser's message in canonical bytes gets; a body it
/// refused (400) must be one the parser refuses, or a message the server refuses after reading for a reason of its
/// own (<see cref="JsonDifferential.AfterReading"/>). Every other difference fails.
/// </summary>
public sealed class ProtobufDifferential
{
    public const string BothRead = "agree: both read it, equal messages";
    public const string BothReadSameAnswer = "agree: both read it, the same answer as the parser's message";
    public const string BothReadFailed = "agree: both read it, the sample's deliberate failure";
    public const string BothRefused = "agree: both refused";
    public const string RefusedAfterReading = "agree: both read it, then refused by a check after reading";
    public const string NotRead = "not compared: not read by the server";
    public const string Different = "DIFFERENT";

    private readonly ConcurrentDictionary<string, int> _tally = new();
    private readonly ConcurrentQueue<string> _differences = new();

    public IReadOnlyCollection<string> Differences => _differences;

    public int Compared => _tally.Where(t => !t.Key.StartsWith(NotRead, StringComparison.Ordinal)).Sum(t => t.Value);

    /// <summary>Judges one answered case; <paramref name="connection"/> re-sends an echoed body for its protobuf answer when needed.</summary>
    public async Task ObserveAsync(FuzzCase fuzzCase, RawResponse response, RawHttpConnection connection)
    {
        var path = fuzzCase.Target.Split('?')[0];
        var error = ErrorBody.TryRead(response.Header("Content-Type"), response.Body);
        var read = response.Status == 200 || FuzzRunner.IsSearchBlankQueryFailure(fuzzCase, response.Status, error);
        if (!read && response.Status != 400)
        {
            Tally($"{NotRead} ({response.Status})");
            return;
        }

        IMessage? expected = null;
        string? refusal = null;
        try
        {
            expected = JsonDifferential.Requests[path].Parser.ParseFrom(fuzzCase.Body!);
        }
        catch (Exception ex) when (ex is InvalidProtocolBufferException or InvalidOperationException)
        {
            refusal = ex.Message;
        }

        if (!read)
        {
            if (refusal is not null)
            {
                Tally(BothRefused);
            }
            else if (JsonDifferential.AfterReading(expected!, path) is { } check && error?.ErrorText.StartsWith(check, StringComparison.Ordinal) == true)
            {
                Tally(RefusedAfterReading);
            }
            else
            {
                Differ(fuzzCase, $"refused ({error?.ErrorText}), the parser read {expected}");
            }

            return;
        }

        if (refusal is not null)
        {
            Differ(fuzzCase, $"read it, the parser refused: {refusal}");
            return;
        }

        if (!JsonDifferential.Echoes.Contains(path))
        {
            if (response.Status != 200)
            {
                Tally(BothReadFailed);
                return;
            }

            // The answer must be the one the parser's message gets: its canonical bytes, sent again at {Method}.pb.
            var (answer, canonical, mismatch) = await AnswersAsync(fuzzCase, response, expected!.ToByteArray(), connection);
            if (answer is not null && answer.Equals(canonical))
            {
                Tally(BothReadSameAnswer);
            }
            else
            {
                Differ(fuzzCase, mismatch ?? $"answered {answer}, where the parser's message gets {canonical}");
            }

            return;
        }

        var (actual, problem) = await JsonDifferential.ReadEchoAsync(fuzzCase, response, connection);
        if (actual is not null && actual.Equals(expected))
        {
            Tally(BothRead);
        }
        else
        {
            Differ(fuzzCase, problem ?? $"echoed {actual}, the parser read {expected}");
        }
    }

    // This case's answer and the answer to the parser's message in canonical bytes, both as protobuf (at {Method}.pb).
    private static async Task<(IMessage? Answer, IMessage? Canonical, string? Problem)> AnswersAsync(
        FuzzCase fuzzCase, RawResponse response, byte[] canonical, RawHttpConnection connection)
    {
        var path = fuzzCase.Target.Split('?')[0];
        var parser = FuzzSeeds.ResponseParsers[path];
        try
        {
            var answer = ErrorBody.Kind(response.Header("Content-Type")) == "protobuf"
                ? response
                : await connection.SendAsync("POST", path + ".pb", [("Content-Type", fuzzCase.ContentType!)], fuzzCase.Body);
            var again = await connection.SendAsync("POST", path + ".pb", [("Content-Type", "application/x-protobuf")], canonical);
            if (answer.Status != 200 || again.Status != 200)
            {
                return (null, null, $"read it, but at {path}.pb answered {answer.Status}, and {again.Status} to the parser's message");
            }

            return (parser.ParseFrom(answer.Body), parser.ParseFrom(again.Body), null);
        }
        catch (Exception ex) when (ex is IOException or System.Net.Sockets.SocketException or TimeoutException or InvalidProtocolBufferException)
        {
            return (null, null, $"read it, but comparing its answer failed: {ex.Message}");
        }
    }

    /// <summary>One line per category.</summary>
    public IEnumerable<string> Lines() =>
        _tally.OrderBy(t => t.Key, StringComparer.Ordinal).Select(t => string.Create(CultureInfo.InvariantCulture, $"  {t.Key}: {t.Value}"));

    private void Differ(FuzzCase fuzzCase, string difference)
    {
        Tally(Different);
        var body = Convert.ToHexString(fuzzCase.Body!);
        _differences.Enqueue($"{fuzzCase.Target} [{fuzzCase.Mutation}]: the server {difference}\n    body ({fuzzCase.Body!.Length} bytes): {(body.Length > 400 ? body[..400] + "…" : body)}");
    }

    private void Tally(string category) => _tally.AddOrUpdate(category, 1, (_, n) => n + 1);
}
