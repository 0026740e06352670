using System.Text;
using System.Text.RegularExpressions;

namespace ProtoHttp.FunctionalTests.Hardening;

/// <summary>
/// JSON mutations: syntax errors, values of the wrong type, numbers past every range, bad escapes and base64,
/// duplicate and unknown keys, overlong strings, deep nesting, invalid UTF-8, hostile well-known types.
/// </summary>
public static partial class JsonMutator
{
    private static readonly string[] ContentTypes = ["application/json", "text/json", "application/problem+json", "application/json; charset=utf-8"];

    private static readonly string[] HostileValues =
    [
        "{}", "[]", "null", "true", "1e400", "-1e400", "99999999999999999999999999", "-0", "1.5", "0x10", "01", ".5", "+1", "NaN",
        "\"\\uD800\"", "\"\\x41\"", "\"\\u12\"", "\"\\uZZZZ\"", "\"\\\"", "\"a\\q\"", "\"!!!\"", "\"AAA=\"", "\"QU JD\"",
        "\"9223372036854775808\"", "\"18446744073709551616\"", "\"1e2\"", "\"1.5\"", "\"Infinity\"", "\"-Infinity\"", "\"NaN\"",
        "\"10000-01-01T00:00:00Z\"", "\"2019-13-45T00:00:00Z\"", "\"315576000001s\"", "\"1.5\"", "\"BLUE\"", "\"RED\"", "5",
        "[1,\"a\",null]", "{\"a\":1}", "\"a..b,\"", "\"\"", "'single'", "undefined", "1 2", "[", "{", "\"unterminated",
    ];

    private static readonly string[] Whole =
    [
        "", " ", "null", "[]", "1", "\"s\"", "{}{}", "{", "}", "{\"a\"}", "{\"a\":}", "{,}", "{\"a\":1,}", "\uFEFF{}", "{}/*c*/", "[{}]",
        "{\"any\":{\"@type\":\"type.googleapis.com/nope.Nope\",\"x\":1}}",
        "{\"any\":{\"@type\":\"type.googleapis.com/google.protobuf.Duration\",\"value\":\"1s\"}}",
        "{\"any\":{\"@type\":\"type.googleapis.com/protohttp.hardening.Specimen\",\"i32\":1}}",
        "{\"any\":{\"@type\":5}}", "{\"any\":{}}", "{\"any\":{\"value\":\"AAA=\"}}", "{\"any\":{\"@type\":\"\"}}", "{\"any\":{\"@type\":\"/\"}}",
        "{\"extra\":{\"a\":[1,{\"b\":null}]}}", "{\"extra\":[]}", "{\"extra\":1}", "{\"mask\":\"a.b,c_d\"}", "{\"mask\":\"aB_c\"}", "{\"mask\":5}",
        "{\"byId\":{\"x\":{}}}", "{\"byId\":{\"99999999999\":{}}}", "{\"counts\":{\"a\":\"x\"}}", "{\"counts\":[]}", "{\"name\":\"a\",\"code\":1}",
        "{\"maybe\":null}", "{\"maybe\":\"5\"}", "{\"maybe\":{}}", "{\"label\":1}", "{\"colors\":[\"RED\",\"NOPE\",7]}", "{\"numbers\":[1,null]}",
    ];

    public static IEnumerable<FuzzCase> Cases(Random random, IReadOnlyList<(string Path, string Json)> seeds, int count)
    {
        for (var i = 0; i < count; i++)
        {
            var (path, seed) = random.Pick(seeds);
            var (body, mutation) = Mutate(random, seed);
            yield return FuzzCase.Post(path, random.Pick(ContentTypes), body, mutation, ProtobufMutator.Accept(random));
        }
    }

    public static (byte[] Body, string Mutation) Mutate(Random random, string seed)
    {
        var values = ValueToken().Matches(seed);
        var keys = KeyToken().Matches(seed);
        switch (random.Next(10))
        {
            case 0 or 1:
                return Mutations.MutateBytes(random, Mutations.Utf8(seed), "{}[]\",:\\ tfn0-.eE"u8);
            case 2 when values.Count > 0:
            {
                var value = values[random.Next(values.Count)].Groups[2];
                return (Replace(seed, value.Index, value.Length, random.Pick(HostileValues)), "hostile value");
            }

            case 3 when keys.Count > 0:
            {
                var key = keys[random.Next(keys.Count)].Groups[1];
                var replacement = random.Next(3) switch
                {
                    0 => "nope",
                    1 => key.Value.ToUpperInvariant(),
                    _ => key.Value + "\\u0000",
                };
                return (Replace(seed, key.Index, key.Length, replacement), "unknown key");
            }

            case 4 when values.Count > 0:
            {
                // The same key again, right after the object opens: a singular field set twice.
                var pair = values[random.Next(values.Count)];
                var open = seed.LastIndexOf('{', pair.Index);
                return (Replace(seed, open + 1, 0, $"{pair.Value.TrimStart(',', '{', ' ')},"), "duplicate key");
            }

            case 5:
            {
                var length = random.Pick(new[] { 10_000, 1_000_000, 3_000_000, 5_000_000 });
                var text = random.Next(2) == 0 ? new string('a', length) : Mutations.Repeat("\\u00e9", length / 6);
                return (Mutations.Utf8(random.Next(2) == 0 ? $"{{\"text\":\"{text}\"}}" : $"{{\"{text}\":1}}"), $"overlong string {length:N0}");
            }

            case 6:
            {
                var depth = random.Pick(new[] { 99, 100, 101, 1_000, 100_000 });
                var (open, inner, close) = random.Next(4) switch
                {
                    0 => ("{\"child\":", "{}", "}"),
                    1 => ("[", "1", "]"),
                    2 => ("{\"extra\":", "{}", "}"),
                    _ => ("{\"a\":", "1", "}"),
                };
                var json = random.Next(3) == 0
                    ? Mutations.Repeat(open, depth) + inner // never closed
                    : Mutations.Repeat(open, depth) + inner + Mutations.Repeat(close, depth);
                return (Mutations.Utf8(open == "[" ? $"{{\"tags\":{json}}}" : json), $"nesting depth {depth}");
            }

            case 7:
            {
                var bytes = Mutations.Utf8(seed).ToList();
                var quote = seed.IndexOf('"', random.Next(Math.Max(1, seed.Length)));
                bytes.InsertRange(quote < 0 ? 0 : quote + 1, random.Pick(Mutations.InvalidUtf8));
                return (bytes.ToArray(), "invalid UTF-8 in a string");
            }

            case 8 when values.Count > 0:
            {
                var value = values[random.Next(values.Count)].Groups[2];
                var escape = random.Pick(new[] { "\"\\q\"", "\"\\u12\"", "\"\\uD800\"", "\"\\uDC00\\uD800\"", "\"a\\", "\"\\u00\"", "\"\t\"", "\"\u0001\"" });
                return (Replace(seed, value.Index, value.Length, escape), "invalid escape");
            }

            default:
                return (Mutations.Utf8(random.Pick(Whole)), "whole document");
        }
    }

    private static byte[] Replace(string text, int at, int length, string with) =>
        Encoding.UTF8.GetBytes(new StringBuilder(text).Remove(at, length).Insert(at, with).ToString());

    // A value after a colon: string, number or literal (objects and arrays are reached by their own keys).
    [GeneratedRegex("""(:\s*)("(?:[^"\\]|\\.)*"|-?\d[\d.eE+-]*|true|false|null)""")]
    private static partial Regex ValueToken();

    [GeneratedRegex("""[{,]\s*"([^"\\]*)"\s*:""")]
    private static partial Regex KeyToken();
}
