using System.Buffers;
using System.Globalization;
using System.Text;

namespace ProtoHttp;

/// <summary>
/// Makes a text that quotes untrusted input writable in every format: the characters XML 1.0 cannot carry (C0
/// controls but tab, LF and CR; U+FFFE, U+FFFF) and lone surrogates (which JSON and UTF-8 cannot carry) become a
/// visible <c>\uXXXX</c>. Used for error texts, which must never fail to be written.
/// </summary>
internal static class PrintableText
{
    private static readonly SearchValues<char> Suspicious = SearchValues.Create(
        [.. Enumerable.Range(0, 0x20).Where(c => c is not ('\t' or '\n' or '\r')).Select(c => (char)c),
         .. Enumerable.Range(0xD800, 0x800).Select(c => (char)c), '\uFFFE', '\uFFFF']);

    /// <summary>The position of the first character XML 1.0, JSON or UTF-8 cannot carry, or -1.</summary>
    public static int IndexOfUncarryable(string text)
    {
        for (var i = text.AsSpan().IndexOfAny(Suspicious); i >= 0 && i < text.Length; i++)
        {
            if (char.IsHighSurrogate(text[i]) && i + 1 < text.Length && char.IsLowSurrogate(text[i + 1]))
            {
                i++;
            }
            else if (Suspicious.Contains(text[i]))
            {
                return i;
            }
        }

        return -1;
    }

    public static string Escape(string text)
    {
        var first = IndexOfUncarryable(text);
        if (first < 0)
        {
            return text;
        }

        var escaped = new StringBuilder(text.Length + 16).Append(text, 0, first);
        for (var i = first; i < text.Length; i++)
        {
            var c = text[i];
            if (char.IsHighSurrogate(c) && i + 1 < text.Length && char.IsLowSurrogate(text[i + 1]))
            {
                escaped.Append(c).Append(text[++i]);
            }
            else if (Suspicious.Contains(c))
            {
                escaped.Append(CultureInfo.InvariantCulture, $"\\u{(int)c:X4}");
            }
            else
            {
                escaped.Append(c);
            }
        }

        return escaped.ToString();
    }
}
