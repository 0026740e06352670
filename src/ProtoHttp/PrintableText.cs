using System.Globalization;
using System.Text;

namespace ProtoHttp;

/// <summary>
/// Makes a text writable in every format: a lone surrogate, which neither JSON nor UTF-8 can encode, becomes a
/// visible <c>\uXXXX</c>. Used for error texts, which must never fail to be written.
/// </summary>
internal static class PrintableText
{
    public static string EscapeLoneSurrogates(string text)
    {
        var first = text.AsSpan().IndexOfAnyInRange('\uD800', '\uDFFF');
        if (first < 0)
        {
            return text;
        }

        var escaped = new StringBuilder(text.Length + 16).Append(text, 0, first);
        for (var i = first; i < text.Length; i++)
        {
            var c = text[i];
            if (i + 1 < text.Length && char.IsSurrogatePair(c, text[i + 1]))
            {
                escaped.Append(c).Append(text[++i]);
            }
            else if (char.IsSurrogate(c))
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
