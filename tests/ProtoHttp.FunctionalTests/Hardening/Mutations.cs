using System.Text;

namespace ProtoHttp.FunctionalTests.Hardening;

/// <summary>Format-blind byte mutations and the hostile values every text format gets, all drawn from one seeded <see cref="Random"/>.</summary>
public static class Mutations
{
    /// <summary>Values that are wrong for most fields: other types, numbers past every range, bad escapes and base64.</summary>
    public static readonly string[] HostileScalars =
    [
        "", " ", "x", "-", "+", "0x10", "01", ".5", "1.", "+1", "1e400", "-1e400", "1e-400", "NaN", "nan", "Infinity", "-INF", "INF",
        "2147483648", "-2147483649", "4294967296", "9223372036854775808", "-9223372036854775809", "18446744073709551616",
        "99999999999999999999999999999999999999", "1.7976931348623157e309", "-0", "0.0000000000000000000000001",
        "true", "false", "TRUE", "yes", "null", "RED", "BLUE", "-1", "2", "999999",
        "AAA=", "!!!!", "====", "QUJD", "QUJD\n", "QU JD", "A", "AB=C",
        "2019-13-45T00:00:00Z", "10000-01-01T00:00:00Z", "0000-12-31T23:59:59Z", "2019-01-01", "2019-01-01T00:00:00+25:00",
        "315576000001s", "1.5", "1.5s", "-315576000001s", "s", "1.0000000001s",
        "a..b", ",,", "_x", "Ünicode", "\u0000", "\uFFFF", "\t\r\n",
    ];

    public static T Pick<T>(this Random random, IReadOnlyList<T> items) => items[random.Next(items.Count)];

    /// <summary>One format-blind mutation of raw bytes, named.</summary>
    public static (byte[] Bytes, string Name) MutateBytes(Random random, byte[] input, ReadOnlySpan<byte> alphabet)
    {
        var bytes = input.ToList();
        switch (random.Next(7))
        {
            case 0:
                return (input[..random.Next(input.Length)], "truncated");
            case 1:
                var flips = 1 + random.Next(8);
                for (var i = 0; i < flips && bytes.Count > 0; i++)
                {
                    var at = random.Next(bytes.Count);
                    bytes[at] ^= (byte)(1 << random.Next(8));
                }

                return (bytes.ToArray(), "bit flips");
            case 2:
                if (bytes.Count > 0)
                {
                    bytes[random.Next(bytes.Count)] = (byte)random.Next(256);
                }

                return (bytes.ToArray(), "random byte");
            case 3:
                var inserts = 1 + random.Next(4);
                for (var i = 0; i < inserts; i++)
                {
                    var b = alphabet.IsEmpty || random.Next(3) == 0 ? (byte)random.Next(256) : alphabet[random.Next(alphabet.Length)];
                    bytes.Insert(random.Next(bytes.Count + 1), b);
                }

                return (bytes.ToArray(), "inserted bytes");
            case 4:
                if (bytes.Count > 1)
                {
                    var start = random.Next(bytes.Count);
                    bytes.RemoveRange(start, Math.Min(bytes.Count - start, 1 + random.Next(16)));
                }

                return (bytes.ToArray(), "deleted range");
            case 5:
                if (bytes.Count > 1)
                {
                    var start = random.Next(bytes.Count);
                    var chunk = bytes.GetRange(start, Math.Min(bytes.Count - start, 1 + random.Next(32)));
                    bytes.InsertRange(random.Next(bytes.Count + 1), chunk);
                }

                return (bytes.ToArray(), "duplicated range");
            default:
                var invalid = random.Pick(InvalidUtf8);
                bytes.InsertRange(random.Next(bytes.Count + 1), invalid);
                return (bytes.ToArray(), "invalid UTF-8");
        }
    }

    /// <summary>Byte sequences that are not UTF-8: a bad continuation, a lone continuation, an overlong slash, a surrogate, past U+10FFFF.</summary>
    public static readonly byte[][] InvalidUtf8 =
    [
        [0xC3, 0x28], [0x80], [0xFF], [0xFE], [0xC0, 0xAF], [0xE0, 0x80, 0xAF], [0xED, 0xA0, 0x80], [0xF4, 0x90, 0x80, 0x80], [0xC3],
    ];

    public static byte[] Utf8(string text) => Encoding.UTF8.GetBytes(text);

    public static string Repeat(string text, int count) => new StringBuilder(text.Length * count).Insert(0, text, count).ToString();
}
