using System.Buffers;
using System.Text.Unicode;
using Google.Protobuf.Reflection;

namespace ProtoHttp.Xml;

/// <summary>
/// Text as element content, escaped byte for byte as <see cref="System.Xml.XmlDictionaryWriter"/> escapes it:
/// <c>&amp;amp;</c>, <c>&amp;lt;</c>, <c>&amp;gt;</c> and <c>&amp;#xD;</c> (so a CR survives the reader's line-end
/// normalization); everything else, tab and LF included, raw UTF-8.
/// </summary>
internal static class XmlStringText
{
    // Enough to make progress whatever the text, small enough not to ask a pipe for one huge buffer.
    private const int ChunkBytes = 4096;

    // What must be escaped plus every character that may be one XML cannot carry (see XmlText): ordinary text
    // holds none of them, so one vectorized scan sends it straight to the UTF-8 transcoder.
    private static readonly SearchValues<char> Special = SearchValues.Create(
        [.. Enumerable.Range(0, 0x20).Where(c => c is not ('\t' or '\n')).Select(c => (char)c),
         '&', '<', '>', .. Enumerable.Range(0xD800, 0x800).Select(c => (char)c), '\uFFFE', '\uFFFF']);

    private static readonly SearchValues<char> Escaped = SearchValues.Create("&<>\r");

    /// <exception cref="UnwritableMessageException"><paramref name="text"/> holds a character XML 1.0 cannot carry.</exception>
    public static void Write(ref Utf8Output output, string text, FieldDescriptor field)
    {
        var rest = text.AsSpan();
        if (rest.IndexOfAny(Special) < 0)
        {
            Transcode(ref output, rest);
            return;
        }

        // Checked here rather than by the XML reader on the other end, which would fail on the whole body.
        if (XmlText.FirstUnwritable(text) is var bad and >= 0)
        {
            throw new UnwritableMessageException(
                $"Field '{field.FullName}' holds U+{bad:X4}, a character XML 1.0 cannot carry; ask for JSON or protobuf instead.");
        }

        // Only surrogate pairs and escapes are left: pairs the transcoder encodes, escapes are written here.
        int next;
        while ((next = rest.IndexOfAny(Escaped)) >= 0)
        {
            Transcode(ref output, rest[..next]);
            output.Write(rest[next] switch
            {
                '&' => "&amp;"u8,
                '<' => "&lt;"u8,
                '>' => "&gt;"u8,
                _ => "&#xD;"u8,
            });
            rest = rest[(next + 1)..];
        }

        Transcode(ref output, rest);
    }

    // The text holds no lone surrogate (checked above or excluded by the scan), so the transcoder cannot fail.
    private static void Transcode(ref Utf8Output output, ReadOnlySpan<char> text)
    {
        while (!text.IsEmpty)
        {
            var span = output.Reserve(Math.Min(text.Length * 3, ChunkBytes));
            Utf8.FromUtf16(text, span, out var read, out var written);
            output.Advance(written);
            text = text[read..];
        }
    }
}
