using System.Buffers;
using System.Xml;

namespace ProtoHttp.Xml;

/// <summary>Which strings XML 1.0 can carry: not U+0000, the other C0 controls but tab, CR and LF, U+FFFE, U+FFFF, or a lone surrogate.</summary>
internal static class XmlText
{
    // Every character that may be one XML 1.0 cannot carry (surrogates are fine in pairs); the vectorized scan
    // finds none of them in ordinary text, so the exact check runs only when it must.
    private static readonly SearchValues<char> Suspicious = SearchValues.Create(
        [.. Enumerable.Range(0, 0x20).Where(c => c is not ('\t' or '\n' or '\r')).Select(c => (char)c),
         .. Enumerable.Range(0xD800, 0x800).Select(c => (char)c), '\uFFFE', '\uFFFF']);

    public static bool CanCarry(string text) => FirstUnwritable(text) < 0;

    /// <summary>The first character XML cannot carry, or -1.</summary>
    public static int FirstUnwritable(ReadOnlySpan<char> text)
    {
        if (text.IndexOfAny(Suspicious) < 0)
        {
            return -1;
        }

        for (var i = 0; i < text.Length; i++)
        {
            if (i + 1 < text.Length && char.IsSurrogatePair(text[i], text[i + 1]))
            {
                i++;
            }
            else if (!XmlConvert.IsXmlChar(text[i]))
            {
                return text[i];
            }
        }

        return -1;
    }
}
