using System.Text.Json;

namespace ProtoHttp.Json;

/// <summary>bool: only the literals true and false; as a map key, the names "true" and "false".</summary>
internal sealed class JsonBoolReader : JsonValueReader<bool>
{
    public static JsonBoolReader Instance { get; } = new();

    public override bool TryRead(ref JsonInput input, int depth, out bool value)
    {
        ref var reader = ref input.Reader;
        value = reader.TokenType switch
        {
            JsonTokenType.True => true,
            JsonTokenType.False => false,
            _ => throw JsonTokens.Unexpected(ref reader, "true or false"),
        };
        return true;
    }

    public override bool ReadKey(ref Utf8JsonReader reader) =>
        reader.ValueTextEquals("true"u8) || (reader.ValueTextEquals("false"u8)
            ? false
            : throw new ValueFormatException($"Invalid string for bool map key: \"{reader.GetString()}\"."));
}
