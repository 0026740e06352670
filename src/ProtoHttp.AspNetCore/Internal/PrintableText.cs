using System.Globalization;
using System.Text;

namespace ProtoHttp.AspNetCore.Internal;

/// <summary>
/// Makes a text writable in every format: a lone surrogate, which neither JSON nor UTF-8 can encode, becomes a
/// visible <c>\uXXXX</c>; for XML, a character XML 1.0 cannot carry becomes U+FFFD. Used for error texts, which must
/// never fail to be written and keep the negotiated format.
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

    /// <summary>
    /// Replaces each character XML 1.0 cannot carry (U+0000 and the other C0 controls but tab, CR and LF; U+FFFE,
    /// U+FFFF; a lone surrogate) with U+FFFD, the replacement character.
    /// </summary>
    public static string ReplaceUnwritableInXml(string text)
    {
        // Only error texts come here, and only for XML answers: the copy costs less than a second scanner beside the
        // XML codec's own (XmlText, internal to ProtoHttp).
        return string.Create(text.Length, text, static (output, source) =>
        {
            for (var i = 0; i < source.Length; i++)
            {
                var c = source[i];
                if (i + 1 < source.Length && char.IsSurrogatePair(c, source[i + 1]))
                {
                    output[i] = c;
                    output[++i] = source[i];
                }
                else
                {
                    output[i] = IsXmlChar(c) ? c : '\uFFFD';
                }
            }
        });
    }

    // XML 1.0's Char production for one UTF-16 unit (a lone surrogate is none), as XmlConvert.IsXmlChar, whose 64 KB
    // table would keep System.Private.Xml in an app that left the XML codec out (ProtoHttp.Xml.IsSupported).
    private static bool IsXmlChar(char c) =>
        c is '\t' or '\n' or '\r' or (>= '\u0020' and <= '\uD7FF') or (>= '\uE000' and <= '\uFFFD');
}
