using System.Text;

namespace ProtoHttp.FunctionalTests.Hardening;

/// <summary>
/// Form body and query string mutations (one binder reads both): bad percent-encoding, invalid UTF-8, wrong and huge
/// values, duplicate and unknown keys, malformed paths and map brackets, overlong values, deep dotted paths.
/// </summary>
public static class FormMutator
{
    private static readonly string[] BadPercent = ["%", "%4", "%G1", "%zz", "%%", "%C3%28", "%FF", "%ED%A0%80", "%C0%AF", "%00", "%E2%82", "%+1"];

    private static readonly string[] HostileKeys =
    [
        "nope", "", "=", ".", "..", "child.", ".child", "child..i32", "child.nope", "counts[", "counts]", "counts[]", "counts[a", "counts[a]]",
        "counts[a][b]", "by_id[x].text", "by_id[1].nope", "by_id[99999999999].text", "children.i32", "children[0].i32", "orders.order_id",
        "tags[0]", "text[x]", "i32.x", "any.type_url", "extra.a", "mask.paths", "maybe.value", "at.seconds", "pageNumber", "PAGE_NUMBER",
        "query.x", "__RequestVerificationToken2", "name", "code",
    ];

    public static IEnumerable<FuzzCase> Cases(Random random, IReadOnlyList<(string Path, List<KeyValuePair<string, string>> Pairs)> seeds, int count, bool query)
    {
        for (var i = 0; i < count; i++)
        {
            var (path, seed) = random.Pick(seeds);
            var (text, mutation) = Mutate(random, seed, query);
            yield return query
                ? FuzzCase.Get(path, AsRequestTarget(text), mutation, ProtobufMutator.Accept(random))
                : FuzzCase.Post(path, "application/x-www-form-urlencoded", text, mutation, ProtobufMutator.Accept(random));
        }
    }

    public static (byte[] Text, string Mutation) Mutate(Random random, List<KeyValuePair<string, string>> seed, bool query)
    {
        var pairs = seed.Select(p => (Key: Encode(p.Key), Value: Encode(p.Value))).ToList();
        string mutation;
        switch (random.Next(query ? 9 : 10))
        {
            case 0 when pairs.Count > 0:
            {
                var at = random.Next(pairs.Count);
                pairs[at] = (pairs[at].Key, Encode(random.Pick(Mutations.HostileScalars)));
                mutation = "hostile value";
                break;
            }

            case 1:
            {
                var bad = random.Pick(BadPercent);
                var at = random.Next(Math.Max(1, pairs.Count));
                var pair = pairs.Count == 0 ? ("text", "x") : pairs[at];
                pair = random.Next(2) == 0 ? (pair.Item1 + bad, pair.Item2) : (pair.Item1, pair.Item2 + bad);
                if (pairs.Count == 0)
                {
                    pairs.Add(pair);
                }
                else
                {
                    pairs[at] = pair;
                }

                mutation = "bad percent-encoding";
                break;
            }

            case 2:
                pairs.Insert(random.Next(pairs.Count + 1), (Encode(random.Pick(HostileKeys)), Encode(random.Pick(Mutations.HostileScalars))));
                mutation = "hostile key";
                break;
            case 3 when pairs.Count > 0:
                pairs.Add(random.Pick(pairs));
                mutation = "duplicate key";
                break;
            case 4:
            {
                // Kestrel refuses request lines over 8 KiB itself, so a query's long value stays under that.
                var length = query ? random.Pick(new[] { 1_000, 7_000 }) : random.Pick(new[] { 10_000, 1_000_000, 5_000_000 });
                pairs.Add(random.Next(2) == 0 ? ("text", new string('a', length)) : (new string('a', length), "1"));
                mutation = $"overlong value {length:N0}";
                break;
            }

            case 5:
            {
                var depth = random.Pick(new[] { 99, 100, 101, query ? 1_000 : 50_000 });
                pairs.Add((Mutations.Repeat("child.", depth) + "i32", "1"));
                mutation = $"dotted depth {depth}";
                break;
            }

            case 6:
            {
                var text = string.Join("&", pairs.Select(p => $"{p.Key}={p.Value}"));
                var (bytes, name) = Mutations.MutateBytes(random, Encoding.ASCII.GetBytes(text), "&=%+.[]"u8);
                return (bytes, name);
            }

            case 7:
                pairs.Add((random.Pick(new[] { "data", "any.value" }), Encode(random.Pick(new[] { "!!", "A", "AB=C", "QUJD====", "QU JD", "-_-_", "QUJD%3D" }))));
                mutation = "invalid base64";
                break;
            case 8:
                return (Encoding.ASCII.GetBytes(random.Pick(new[] { "&", "&&&", "=", "==", "=&=", "a", "a=b=c", ";", "a=1;b=2", "%", "+", "+=+" })), "whole string");
            default:
            {
                // Raw bytes in a body are never escaped by anyone: they must still be UTF-8.
                var text = Encoding.ASCII.GetBytes(string.Join("&", pairs.Select(p => $"{p.Key}={p.Value}"))).ToList();
                text.InsertRange(random.Next(text.Count + 1), random.Pick(Mutations.InvalidUtf8));
                return (text.ToArray(), "raw invalid UTF-8");
            }
        }

        return (Encoding.ASCII.GetBytes(string.Join("&", pairs.Select(p => $"{p.Key}={p.Value}"))), mutation);
    }

    /// <summary>A form's percent-encoding of a decoded name or value.</summary>
    public static string Encode(string text) => Uri.EscapeDataString(text).Replace("%20", "+", StringComparison.Ordinal);

    /// <summary>What may stand in a request line: printable ASCII but space and '#'; any other byte percent-encoded.</summary>
    private static string AsRequestTarget(byte[] text)
    {
        var target = new StringBuilder(text.Length);
        foreach (var b in text)
        {
            target.Append(b is > 0x20 and < 0x7F && b != '#' ? ((char)b).ToString() : $"%{b:X2}");
        }

        return target.ToString();
    }
}
