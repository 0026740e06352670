using System.Text;
using System.Text.RegularExpressions;

namespace ProtoHttp.FunctionalTests.Hardening;

/// <summary>
/// Valid JSON requests changed right where the reader departs from JsonParser on purpose (see
/// <see cref="JsonDepartures"/>): fields given twice by either name, bytes in base64url and unpadded, null values
/// for oneof members and other fields, so the differential check meets each departure often and both ways.
/// </summary>
public static partial class JsonDepartureMutator
{
    // Members for a Specimen object: repeats of its fields, bytes in every alphabet and padding, nulls.
    private static readonly string[] SpecimenMembers =
    [
        "\"i32\":1", "\"i32\":2", "\"i32\":null", "\"text\":\"a\"", "\"text\":null", "\"byId\":{\"1\":{}}", "\"by_id\":{\"2\":{\"i32\":2}}",
        "\"counts\":{\"a\":\"1\",\"a\":\"2\"}", "\"counts\":{\"a\":null}", "\"extra\":{\"k\":1,\"k\":2}", "\"extra\":{\"k\":null}", "\"extra\":null",
        "\"child\":{\"i32\":1}", "\"child\":{\"text\":\"b\"}", "\"child\":null", "\"tags\":[\"a\"]", "\"tags\":null", "\"numbers\":[1,null]",
        "\"at\":\"2020-01-01T00:00:00Z\"", "\"at\":null", "\"maybe\":1", "\"maybe\":null", "\"label\":null", "\"color\":null", "\"any\":null",
        "\"name\":\"x\"", "\"name\":null", "\"code\":7", "\"code\":null", "\"code\":0", "\"name\":\"\"",
        "\"data\":\"-_8\"", "\"data\":\"-_8=\"", "\"data\":\"+/8\"", "\"data\":\"+/8=\"", "\"data\":\"AQ\"", "\"data\":\"AQ==\"", "\"data\":\"AQ=\"",
        "\"data\":\"A\"", "\"data\":\"-+_/\"", "\"data\":\"_-_-\"", "\"data\":\"-_8 \"", "\"data\":\"-_8==\"", "\"data\":\"\"", "\"data\":null",
    ];

    private static readonly string[] SearchMembers =
    [
        "\"query\":\"b\"", "\"query\":null", "\"pageNumber\":2", "\"page_number\":3", "\"pageNumber\":null", "\"resultPerPage\":null", "\"result_per_page\":4",
    ];

    // Each departure in the forms of Google's conformance suite, at the root and nested, once each.
    private static readonly string[] Exact =
    [
        "{\"name\":null,\"code\":1}", "{\"code\":1,\"name\":null}", "{\"name\":\"a\",\"code\":null}", "{\"code\":null,\"name\":\"a\"}",
        "{\"name\":null,\"code\":null}", "{\"name\":null}", "{\"name\":\"a\",\"code\":1}", "{\"child\":{\"code\":1,\"name\":null}}",
        "{\"byId\":{\"1\":{\"name\":\"a\",\"code\":null}}}", "{\"children\":[{\"code\":null,\"code\":2}]}",
        "{\"data\":\"-_8\"}", "{\"data\":\"-_8=\"}", "{\"data\":\"AQ\"}", "{\"data\":\"_w\"}", "{\"data\":\"_w==\"}", "{\"data\":\"-+8=\"}",
        "{\"child\":{\"data\":\"-_-_\"}}", "{\"byId\":{\"1\":{\"data\":\"__8\"}}}", "{\"data\":\"-_8\",\"name\":null,\"code\":3}",
        "{\"i32\":1,\"i32\":2}", "{\"i32\":1,\"i32\":null}", "{\"byId\":{},\"by_id\":{}}", "{\"text\":\"a\",\"text\":\"a\"}",
        "{\"counts\":{\"a\":\"1\",\"a\":\"2\"}}", "{\"extra\":{\"k\":1,\"k\":2}}", "{\"child\":{\"i32\":1,\"i32\":1}}",
        "{\"tags\":[\"a\"],\"tags\":[\"b\"]}", "{\"child\":{\"i32\":1},\"child\":{\"text\":\"b\"}}", "{\"maybe\":1,\"maybe\":2}",
    ];

    public static IEnumerable<FuzzCase> Cases(Random random, IReadOnlyList<(string Path, string Json)> seeds, int count)
    {
        foreach (var json in Exact)
        {
            yield return FuzzCase.Post(FuzzSeeds.Echo, "application/json", Encoding.UTF8.GetBytes(json), "departure, exact", "application/x-protobuf");
        }

        for (var i = 0; i < count; i++)
        {
            var (path, seed) = random.Pick(seeds);
            var (json, mutation) = path switch
            {
                FuzzSeeds.Echo when random.Next(3) > 0 => Insert(random, seed, SpecimenMembers, nested: "\"child\":{"),
                FuzzSeeds.Search when random.Next(2) > 0 => Insert(random, seed, SearchMembers, nested: null),
                _ => Repeat(random, seed),
            };
            yield return FuzzCase.Post(path, "application/json", Encoding.UTF8.GetBytes(json), mutation, ProtobufMutator.Accept(random));
        }
    }

    // One to three members at the start or end of the root object, or at the start of a nested one.
    private static (string, string) Insert(Random random, string seed, string[] members, string? nested)
    {
        var chosen = string.Join(",", Enumerable.Range(0, 1 + random.Next(3)).Select(_ => random.Pick(members)));
        var inner = nested is null ? -1 : seed.IndexOf(nested, StringComparison.Ordinal);
        var empty = seed.Trim() == "{}";
        return random.Next(3) switch
        {
            0 when inner >= 0 => (seed.Insert(inner + nested!.Length, chosen + (seed[inner + nested.Length] == '}' ? "" : ",")), $"departure members in a nested object: {chosen}"),
            1 => (seed.TrimEnd()[..^1] + (empty ? "" : ",") + chosen + "}", $"departure members last: {chosen}"),
            _ => ("{" + chosen + (empty ? "}" : "," + seed.TrimStart()[1..]), $"departure members first: {chosen}"),
        };
    }

    // A scalar member again, right before or after itself: by the same name or its other name, with the same value or null.
    private static (string, string) Repeat(Random random, string seed)
    {
        var members = Member().Matches(seed);
        if (members.Count == 0)
        {
            return (seed, "unchanged");
        }

        var member = members[random.Next(members.Count)];
        var key = member.Groups[1].Value;
        var name = random.Next(2) == 0 ? key : OtherName(key);
        var repeat = $"\"{name}\":{(random.Next(3) == 0 ? "null" : member.Groups[2].Value)}";
        var json = random.Next(2) == 0
            ? seed.Insert(member.Index + member.Length, "," + repeat)
            : seed.Insert(member.Index, repeat + ",");
        return (json, $"repeated member {repeat}");
    }

    // lowerCamelCase to proto_name and back (names without either shape stay as they are).
    private static string OtherName(string name) => name.Contains('_', StringComparison.Ordinal)
        ? Underscore().Replace(name, m => m.Groups[1].Value.ToUpperInvariant())
        : Upper().Replace(name, m => "_" + m.Value.ToLowerInvariant());

    [GeneratedRegex("""(?<=[{,]\s*)"([^"\\]+)"\s*:\s*("(?:[^"\\]|\\.)*"|-?\d[\d.eE+-]*|true|false|null)""")]
    private static partial Regex Member();

    [GeneratedRegex("_([a-z0-9])")]
    private static partial Regex Underscore();

    [GeneratedRegex("[A-Z]")]
    private static partial Regex Upper();
}
