using System.Buffers;
using System.Xml;

namespace ProtoHttp;

/// <summary>The characters XML 1.0 cannot carry, found fast in ordinary text.</summary>
internal static class XmlCharacters
{
    // Every character that may be one XML 1.0 cannot carry: C0 controls but tab, LF and CR; surrogates (fine in
    // pairs); U+FFFE and U+FFFF.
    private static readonly SearchValues<char> Suspicious = SearchValues.Create(
        [.. Enumerable.Range(0, 0x20).Where(c => c is not ('\t' or '\n' or '\r')).Select(c => (char)c),
         .. Enumerable.Range(0xD800, 0x800).Select(c => (char)c), '\uFFFE', '\uFFFF']);

    /// <summary>The first character of <paramref name="text"/> XML 1.0 cannot carry, or -1 when there is none.</summary>
    public static int FirstInvalid(string text)
    {
        // The vectorized scan finds nothing in ordinary text, so the loop below rarely runs.
        var start = text.AsSpan().IndexOfAny(Suspicious);
        if (start < 0)
        {
            return -1;
        }

        for (var i = start; i < text.Length; i++)
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
