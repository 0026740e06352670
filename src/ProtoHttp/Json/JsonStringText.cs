using System.Buffers;
using System.Text;

namespace ProtoHttp.Json;

/// <summary>
/// JSON strings escaped exactly as Google.Protobuf's JsonFormatter escapes them, so the native writer's bytes equal
/// its output: <c>&lt;</c>, <c>&gt;</c>, DEL, C0 and C1 controls, a few invisible or direction-changing characters
/// and every surrogate pair become <c>\uXXXX</c> (lower-case hex); everything else is raw UTF-8.
/// </summary>
internal static class JsonStringText
{
    // Printable ASCII minus what JsonFormatter escapes: the quote, the backslash, and < > (for HTML safety).
    private static readonly SearchValues<char> PlainAscii = SearchValues.Create(
        " !#$%&'()*+,-./0123456789:;=?@ABCDEFGHIJKLMNOPQRSTUVWXYZ[]^_`abcdefghijklmnopqrstuvwxyz{|}~");

    private static ReadOnlySpan<byte> Hex => "0123456789abcdef"u8;

    /// <exception cref="ArgumentException">A lone surrogate, which JsonFormatter refuses too.</exception>
    public static void Write(ref Utf8Output output, string text)
    {
        output.Write((byte)'"');
        var rest = text.AsSpan();
        while (!rest.IsEmpty)
        {
            var plain = rest.IndexOfAnyExcept(PlainAscii);
            if (plain < 0)
            {
                plain = rest.Length;
            }

            if (plain > 0)
            {
                Ascii.FromUtf16(rest[..plain], output.Reserve(plain), out _);
                output.Advance(plain);
                rest = rest[plain..];
                continue;
            }

            rest = rest[WriteSpecial(ref output, rest)..];
        }

        output.Write((byte)'"');
    }

    /// <summary>Encodes <paramref name="text"/> as a quoted JSON string into a new array (for precomputed names).</summary>
    public static byte[] Encode(string text)
    {
        var buffer = new ArrayBufferWriter<byte>();
        var output = new Utf8Output(buffer);
        Write(ref output, text);
        output.Flush();
        return buffer.WrittenSpan.ToArray();
    }

    // Writes the character (or pair) at the start of text, which is not plain ASCII; returns the chars consumed.
    private static int WriteSpecial(ref Utf8Output output, ReadOnlySpan<char> text)
    {
        var c = text[0];
        if (char.IsHighSurrogate(c))
        {
            if (text.Length < 2 || !char.IsLowSurrogate(text[1]))
            {
                throw new ArgumentException("String contains high surrogate not followed by low surrogate");
            }

            WriteHex(ref output, c);
            WriteHex(ref output, text[1]);
            return 2;
        }

        if (char.IsLowSurrogate(c))
        {
            throw new ArgumentException("String contains low surrogate not preceded by high surrogate");
        }

        if (c < 0xA0)
        {
            WriteControlOrMarkup(ref output, c);
        }
        else if (IsHidden(c))
        {
            WriteHex(ref output, c);
        }
        else
        {
            var span = output.Reserve(3);
            output.Advance(new Rune(c).EncodeToUtf8(span));
        }

        return 1;
    }

    private static void WriteControlOrMarkup(ref Utf8Output output, char c)
    {
        ReadOnlySpan<byte> shortForm = c switch
        {
            '"' => "\\\""u8,
            '\\' => "\\\\"u8,
            '\b' => "\\b"u8,
            '\t' => "\\t"u8,
            '\n' => "\\n"u8,
            '\f' => "\\f"u8,
            '\r' => "\\r"u8,
            _ => default,
        };
        if (shortForm.IsEmpty)
        {
            WriteHex(ref output, c);
        }
        else
        {
            output.Write(shortForm);
        }
    }

    // Characters JsonFormatter escapes although JSON allows them raw: invisible, format or line-separating ones
    // that JavaScript tooling has mishandled.
    private static bool IsHidden(char c) =>
        c is '\u00AD' or '\u06DD' or '\u070F' or '\u17B4' or '\u17B5' or '\uFEFF'
            or (>= '\u0600' and <= '\u0603')
            or (>= '\u200B' and <= '\u200F')
            or (>= '\u2028' and <= '\u202E')
            or (>= '\u2060' and <= '\u2064')
            or (>= '\u206A' and <= '\u206F')
            or (>= '\uFFF9' and <= '\uFFFB');

    private static void WriteHex(ref Utf8Output output, char c)
    {
        var span = output.Reserve(6);
        span[0] = (byte)'\\';
        span[1] = (byte)'u';
        span[2] = Hex[(c >> 12) & 0xF];
        span[3] = Hex[(c >> 8) & 0xF];
        span[4] = Hex[(c >> 4) & 0xF];
        span[5] = Hex[c & 0xF];
        output.Advance(6);
    }
}
