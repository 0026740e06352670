using System.Buffers;
using System.Buffers.Text;
using System.Text;
using System.Text.Json;
using Google.Protobuf;

namespace ProtoHttp.Json;

/// <summary>
/// bytes (and BytesValue): standard or URL-safe base64, padded or not, as the protobuf JSON spec allows (JsonParser
/// takes only padded standard base64).
/// </summary>
internal sealed class JsonBytesReader : JsonValueReader<ByteString>
{
    public static JsonBytesReader Instance { get; } = new();

    private static readonly SearchValues<byte> Whitespace = SearchValues.Create(" \t\r\n"u8);

    public override bool TryRead(ref JsonInput input, int depth, out ByteString value)
    {
        ref var reader = ref input.Reader;
        if (reader.TokenType != JsonTokenType.String)
        {
            throw JsonTokens.Unexpected(ref reader, "a base64 string");
        }

        Span<byte> buffer = stackalloc byte[256];
        var text = JsonText.Utf8(in reader, buffer);
        value = TryDecode(text) ?? Decode(text);
        return true;
    }

    // Padded base64 without whitespace, decoded straight from UTF-8; anything else takes Convert's path below.
    private static ByteString? TryDecode(ReadOnlySpan<byte> text)
    {
        if (text.Length % 4 != 0 || text.ContainsAny(Whitespace))
        {
            return null;
        }

        if (text.IsEmpty)
        {
            return ByteString.Empty;
        }

        var bytes = new byte[text.Length / 4 * 3 - (text[^1] == '=' ? text[^2] == '=' ? 2 : 1 : 0)];
        return Base64.DecodeFromUtf8(text, bytes, out var consumed, out var written) == OperationStatus.Done
            && consumed == text.Length && written == bytes.Length
            ? UnsafeByteOperations.UnsafeWrap(bytes)
            : null;
    }

    private static ByteString Decode(ReadOnlySpan<byte> text)
    {
        try
        {
            return ByteString.FromBase64(Standard(Encoding.UTF8.GetString(text)));
        }
        catch (FormatException)
        {
            throw new ValueFormatException("Invalid base64 data.");
        }
    }

    // URL-safe letters become standard ones and missing padding is restored; whitespace stays for the decoder to
    // skip, as JsonParser does, and a length no base64 text can have is left for it to refuse.
    private static string Standard(string text)
    {
        var letters = text.Contains('=') ? 0 : text.Count(c => !char.IsWhiteSpace(c));
        var padded = letters % 4 is 2 or 3 ? text + new string('=', 4 - letters % 4) : text;
        return padded.Replace('-', '+').Replace('_', '/');
    }
}
