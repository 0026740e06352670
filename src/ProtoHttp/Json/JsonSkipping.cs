using System.Text.Json;

namespace ProtoHttp.Json;

/// <summary>Skips an ignored value while refusing what JsonParser's tokenizer refuses even there.</summary>
internal static class JsonSkipping
{
    /// <summary>Moves past the value at the current token, leaving the reader on its last token.</summary>
    public static void Skip(ref Utf8JsonReader reader)
    {
        Check(ref reader);
        if (reader.TokenType is not (JsonTokenType.StartObject or JsonTokenType.StartArray))
        {
            return;
        }

        // The container's end token is back at the container's depth.
        var depth = reader.CurrentDepth;
        do
        {
            reader.Read();
            Check(ref reader);
        }
        while (reader.CurrentDepth > depth);
    }

    // Syntax is the reader's to check; a lone surrogate escape or a number beyond double's range is not.
    private static void Check(ref Utf8JsonReader reader)
    {
        if (reader.TokenType is JsonTokenType.String or JsonTokenType.PropertyName && reader.ValueIsEscaped)
        {
            _ = reader.GetString();
        }
        else if (reader.TokenType == JsonTokenType.Number)
        {
            _ = JsonNumberReading.Double(ref reader);
        }
    }
}
