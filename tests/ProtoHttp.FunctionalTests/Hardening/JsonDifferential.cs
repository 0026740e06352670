using System.Collections.Concurrent;
using System.Globalization;
using System.Text;
using Google.Protobuf;
using Google.Protobuf.Reflection;
using Northwind;
using ProtoService;

namespace ProtoHttp.FunctionalTests.Hardening;

/// <summary>
/// The server's JSON reader against <see cref="JsonReference"/>, case by case, from what the server answered over
/// HTTP: a body the server read (200, or the sample's deliberate 500 on a blank query) must be one the reference reads,
/// into an equal message where the method echoes its request; a body it refused (400) must be one the reference
/// refuses. The only differences allowed are the deliberate departures <see cref="JsonDepartures"/> finds, an empty
/// body (which the codec reads as the empty message before any JSON reader sees it); each is counted apart, every
/// other difference fails.
/// </summary>
public sealed class JsonDifferential(JsonReference reference)
{
    public const string BothRead = "agree: both read it, equal messages";
    public const string BothReadUncompared = "agree: both read it (the method does not echo it)";
    public const string BothRefused = "agree: both refused";
    public const string InvalidUtf8 = "agree: both refused, not UTF-8";
    public const string DuplicateRefused = "departure 1: a field given twice, refused";
    public const string Base64UrlRead = "departure 2: base64url / unpadded bytes, read";
    public const string NullOneofRead = "departure 3: null oneof member, read as absent";
    public const string RefusedAfterReading = "agree: both read it, then refused by a check after reading";
    public const string EmptyBody = "codec: empty body, read as the empty message";
    public const string NotRead = "not compared: not read by the server";
    public const string Different = "DIFFERENT";

    private static readonly UTF8Encoding StrictUtf8 = new(encoderShouldEmitUTF8Identifier: false, throwOnInvalidBytes: true);

    internal static readonly Dictionary<string, MessageDescriptor> Requests = new()
    {
        [FuzzSeeds.Search] = SearchRequest.Descriptor,
        [FuzzSeeds.Roundtrip] = OrderList.Descriptor,
        [FuzzSeeds.GetOrders] = OrdersRequest.Descriptor,
        [FuzzSeeds.Echo] = Specimen.Descriptor,
    };

    // The methods that answer the request they are sent.
    internal static readonly HashSet<string> Echoes = [FuzzSeeds.Roundtrip, FuzzSeeds.Echo];

    private readonly ConcurrentDictionary<string, int> _tally = new();
    private readonly ConcurrentDictionary<string, int> _found = new();
    private readonly ConcurrentQueue<string> _differences = new();

    public IReadOnlyCollection<string> Differences => _differences;

    public int Compared => _tally.Where(t => !t.Key.StartsWith(NotRead, StringComparison.Ordinal)).Sum(t => t.Value);

    public int Count(string category) => _tally.GetValueOrDefault(category);

    /// <summary>Judges one answered case; <paramref name="connection"/> re-sends an echoed body for its protobuf answer when needed.</summary>
    public async Task ObserveAsync(FuzzCase fuzzCase, RawResponse response, RawHttpConnection connection)
    {
        var path = fuzzCase.Target.Split('?')[0];
        var read = response.Status == 200 || FuzzRunner.IsSearchBlankQueryFailure(fuzzCase, response.Status, ErrorBody.TryRead(response.Header("Content-Type"), response.Body));
        if (!read && response.Status != 400)
        {
            Tally($"{NotRead} ({response.Status})");
            return;
        }

        var body = fuzzCase.Body!;
        string json;
        try
        {
            json = StrictUtf8.GetString(body);
        }
        catch (DecoderFallbackException)
        {
            Judge(!read, InvalidUtf8, fuzzCase, "read a body that is not UTF-8");
            return;
        }

        var descriptor = Requests[path];
        var (expected, refusal) = body.Length == 0 ? (descriptor.Parser.ParseFrom(Array.Empty<byte>()), (string?)null) : reference.Parse(json, descriptor);
        var departures = body.Length == 0 ? JsonDepartures.None : JsonDepartures.Find(json, descriptor);
        Found("duplicate field", departures.DuplicateField);
        Found("base64url / unpadded bytes", departures.Base64Url);
        Found("null oneof member", departures.NullOneofMember);
        var (normalized, _) = departures.Normalized is { } text ? reference.Parse(text, descriptor) : (null, null);
        if (!read)
        {
            var error = ErrorBody.TryRead(response.Header("Content-Type"), response.Body);
            if (refusal is not null)
            {
                Tally(BothRefused);
            }
            else if (AfterReading(expected!, path) is { } check && error?.ErrorText.StartsWith(check, StringComparison.Ordinal) == true)
            {
                Tally(body.Length == 0 ? EmptyBody : RefusedAfterReading);
            }
            else if (departures.DuplicateField)
            {
                Tally(DuplicateRefused);
            }
            else
            {
                Differ(fuzzCase, $"refused ({error?.ErrorText}), the reference read {expected}");
            }

            return;
        }

        if (!Echoes.Contains(path))
        {
            Judge(refusal is null || normalized is not null, body.Length == 0 ? EmptyBody : refusal is null ? BothReadUncompared : Departure(departures), fuzzCase,
                $"read it, the reference refused: {refusal}");
            return;
        }

        var (actual, problem) = await ReadEchoAsync(fuzzCase, response, connection);
        if (actual is null)
        {
            Differ(fuzzCase, problem!);
        }
        else if (expected is not null && expected.Equals(actual))
        {
            Tally(body.Length == 0 ? EmptyBody : BothRead);
        }
        else if (normalized is not null && normalized.Equals(actual))
        {
            Tally(Departure(departures));
        }
        else
        {
            Differ(fuzzCase, $"read {actual}, the reference {(expected is null ? $"refused: {refusal}" : $"read {expected}")}"
                + (departures.Normalized is null ? "" : $"; from the body with the departures rewritten, it reads {normalized?.ToString() ?? "nothing"}"));
        }
    }

    /// <summary>One line per category, then how many bodies each departure predicate held for.</summary>
    public IEnumerable<string> Lines()
    {
        foreach (var (category, count) in _tally.OrderBy(t => t.Key, StringComparer.Ordinal))
        {
            yield return string.Create(CultureInfo.InvariantCulture, $"  {category}: {count}");
        }

        yield return "  bodies where a departure predicate holds: "
            + string.Join(", ", _found.OrderBy(f => f.Key, StringComparer.Ordinal).Select(f => string.Create(CultureInfo.InvariantCulture, $"{f.Key} {f.Value}")));
    }

    /// <summary>
    /// The error (or how it starts) the server gives, after reading, for a message the reference read: its required-fields check
    /// (docs/protocol.md section 4; JsonParser does not check them) and the sample Search's own argument checks.
    /// </summary>
    internal static string? AfterReading(IMessage message, string path)
    {
        if (!message.IsInitialized())
        {
            return "Missing required field";
        }

        if (path == FuzzSeeds.Search && message is SearchRequest search && !string.IsNullOrWhiteSpace(search.Query))
        {
            var page = search.HasPageNumber ? search.PageNumber : 1;
            var size = search.HasResultPerPage ? search.ResultPerPage : 10;
            return page < 1 ? $"page_number starts at 1, not {page}."
                : size is < 1 or > 100 ? $"result_per_page must be 1 to 100, not {size}."
                : null;
        }

        return null;
    }

    private static string Departure(JsonDepartures departures) => (departures.Base64Url, departures.NullOneofMember) switch
    {
        (true, true) => $"{Base64UrlRead} + {NullOneofRead}",
        (true, false) => Base64UrlRead,
        _ => NullOneofRead,
    };

    // The echo as protobuf: the answer itself, or the same request again at the method's .pb suffix.
    internal static async Task<(IMessage?, string?)> ReadEchoAsync(FuzzCase fuzzCase, RawResponse response, RawHttpConnection connection)
    {
        var path = fuzzCase.Target.Split('?')[0];
        var parser = FuzzSeeds.ResponseParsers[path];
        if (ErrorBody.Kind(response.Header("Content-Type")) != "protobuf")
        {
            try
            {
                response = await connection.SendAsync("POST", path + ".pb", [("Content-Type", fuzzCase.ContentType!)], fuzzCase.Body);
            }
            catch (Exception ex) when (ex is IOException or System.Net.Sockets.SocketException or TimeoutException)
            {
                return (null, $"read it, but sent again at {path}.pb gave no answer ({ex.Message})");
            }

            if (response.Status != 200 || ErrorBody.Kind(response.Header("Content-Type")) != "protobuf")
            {
                return (null, $"read it, but at {path}.pb answered {response.Status} {response.Header("Content-Type")}");
            }
        }

        try
        {
            return (parser.ParseFrom(response.Body), null);
        }
        catch (InvalidProtocolBufferException ex)
        {
            return (null, $"read it, but its protobuf echo does not parse: {ex.Message}");
        }
    }

    private void Judge(bool agrees, string category, FuzzCase fuzzCase, string difference)
    {
        if (agrees)
        {
            Tally(category);
        }
        else
        {
            Differ(fuzzCase, difference);
        }
    }

    private void Differ(FuzzCase fuzzCase, string difference)
    {
        Tally(Different);
        var body = Encoding.UTF8.GetString(fuzzCase.Body!);
        _differences.Enqueue($"{fuzzCase.Target} [{fuzzCase.Mutation}]: the server {difference}\n    body ({fuzzCase.Body!.Length} bytes): {(body.Length > 400 ? body[..400] + "…" : body)}");
    }

    private void Tally(string category) => _tally.AddOrUpdate(category, 1, (_, n) => n + 1);

    private void Found(string predicate, bool holds)
    {
        if (holds)
        {
            _found.AddOrUpdate(predicate, 1, (_, n) => n + 1);
        }
    }
}
