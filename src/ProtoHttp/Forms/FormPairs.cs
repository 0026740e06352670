using System.Buffers;
using System.Text;

namespace ProtoHttp.Forms;

/// <summary>
/// Splits <c>application/x-www-form-urlencoded</c> bytes (a form body, or a query string without its <c>?</c>)
/// into decoded name/value pairs: <c>+</c> is a space, <c>%XX</c> a byte, the bytes UTF-8.
/// </summary>
internal static class FormPairs
{
    private const int StackLimit = 256;
    private static readonly UTF8Encoding StrictUtf8 = new(encoderShouldEmitUTF8Identifier: false, throwOnInvalidBytes: true);

    /// <summary>The pairs in order; empty pairs (<c>a=1&amp;&amp;b=2</c>) are skipped, a name without <c>=</c> has an empty value.</summary>
    /// <exception cref="InvalidMessageException">Bad percent-encoding or invalid UTF-8, naming the key.</exception>
    public static List<KeyValuePair<string, string>> Parse(ReadOnlySequence<byte> input)
    {
        var pairs = new List<KeyValuePair<string, string>>();
        ReadOnlySpan<byte> rest = input.IsSingleSegment ? input.FirstSpan : input.ToArray();
        while (!rest.IsEmpty)
        {
            var end = rest.IndexOf((byte)'&');
            var pair = end < 0 ? rest : rest[..end];
            rest = end < 0 ? default : rest[(end + 1)..];
            if (pair.IsEmpty)
            {
                continue;
            }

            var equals = pair.IndexOf((byte)'=');
            var rawName = equals < 0 ? pair : pair[..equals];
            var name = Decode(rawName, rawName);
            var value = equals < 0 ? "" : Decode(pair[(equals + 1)..], rawName);
            pairs.Add(new(name, value));
        }

        return pairs;
    }

    private static string Decode(ReadOnlySpan<byte> raw, ReadOnlySpan<byte> rawName)
    {
        var buffer = raw.Length <= StackLimit ? stackalloc byte[StackLimit] : new byte[raw.Length];
        var length = 0;
        for (var i = 0; i < raw.Length; i++)
        {
            var b = raw[i];
            if (b == '%')
            {
                if (i + 2 >= raw.Length || !TryHex(raw[i + 1], out var high) || !TryHex(raw[i + 2], out var low))
                {
                    throw new InvalidMessageException($"Key '{Show(rawName)}': '%' must be followed by two hexadecimal digits.");
                }

                b = (byte)((high << 4) | low);
                i += 2;
            }
            else if (b == '+')
            {
                b = (byte)' ';
            }

            buffer[length++] = b;
        }

        try
        {
            return StrictUtf8.GetString(buffer[..length]);
        }
        catch (DecoderFallbackException ex)
        {
            throw new InvalidMessageException($"Key '{Show(rawName)}': the percent-decoded bytes are not valid UTF-8.", ex);
        }
    }

    private static bool TryHex(byte c, out int value)
    {
        value = c switch
        {
            >= (byte)'0' and <= (byte)'9' => c - '0',
            >= (byte)'a' and <= (byte)'f' => c - 'a' + 10,
            >= (byte)'A' and <= (byte)'F' => c - 'A' + 10,
            _ => -1,
        };
        return value >= 0;
    }

    // The key as the client sent it (still encoded), since it could not be decoded.
    private static string Show(ReadOnlySpan<byte> rawName) => FieldText.Shorten(Encoding.Latin1.GetString(rawName));
}
