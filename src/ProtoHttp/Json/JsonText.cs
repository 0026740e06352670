using System.Text.Json;

namespace ProtoHttp.Json;

/// <summary>The unescaped UTF-8 of the current string or property name, without a string where possible.</summary>
internal static class JsonText
{
    /// <summary>The token's text: its own bytes when it has no escapes, else unescaped into <paramref name="buffer"/> (or a new array when too long).</summary>
    public static ReadOnlySpan<byte> Utf8(in Utf8JsonReader reader, Span<byte> buffer)
    {
        if (!reader.HasValueSequence && !reader.ValueIsEscaped)
        {
            return reader.ValueSpan;
        }

        var length = reader.HasValueSequence ? checked((int)reader.ValueSequence.Length) : reader.ValueSpan.Length;
        if (length > buffer.Length)
        {
            buffer = new byte[length];
        }

        return buffer[..reader.CopyString(buffer)];
    }
}
