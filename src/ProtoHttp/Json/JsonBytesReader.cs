using System.Buffers;
using System.Buffers.Text;
using System.Text;
using System.Text.Json;
using Google.Protobuf;

namespace ProtoHttp.Json;

/// <summary>bytes (and BytesValue): standard base64, as <see cref="ByteString.FromBase64"/> reads it.</summary>
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
            return ByteString.FromBase64(Encoding.UTF8.GetString(text));
        }
        catch (FormatException)
        {
            throw new ValueFormatException("Invalid base64 data.");
        }
    }
}
