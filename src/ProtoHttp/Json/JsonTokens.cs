using System.Text.Json;

namespace ProtoHttp.Json;

/// <summary>The refusal for a token a field's type cannot take.</summary>
internal static class JsonTokens
{
    public static ValueFormatException Unexpected(ref Utf8JsonReader reader, string expected) =>
        new($"Expected {expected}, not {Describe(reader.TokenType)}.");

    private static string Describe(JsonTokenType token) => token switch
    {
        JsonTokenType.StartObject => "an object",
        JsonTokenType.StartArray => "an array",
        JsonTokenType.String => "a string",
        JsonTokenType.Number => "a number",
        JsonTokenType.True => "true",
        JsonTokenType.False => "false",
        JsonTokenType.Null => "null",
        _ => token.ToString(),
    };
}
