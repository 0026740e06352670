using System.Collections.Concurrent;
using System.Globalization;
using Google.Protobuf;

namespace ProtoHttp.FunctionalTests.Hardening;

/// <summary>
/// The server's protobuf reading against Google.Protobuf's own parser (the generated <c>MessageParser</c>, run
/// in-process on the same bytes), case by case, from what the server answered over HTTP: a body the server read (200,
/// or the sample's deliberate 500 on a blank query) must be one the parser reads, into an equal message where the
/// method echoes its request; a body it refused (400) must be one the parser refuses, or a message the server refuses
/// after reading for a reason of its own (<see cref="JsonDifferential.AfterReading"/>). Every other difference fails.
/// </summary>
public sealed class ProtobufDifferential
{
    public const string BothRead = "agree: both read it, equal messages";
    public const string BothReadUncompared = "agree: both read it (the method does not echo it)";
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
            Tally(BothReadUncompared);
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
