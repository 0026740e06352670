using System.Text.Json;

namespace ProtoHttp.Json;

/// <summary>int32, sint32, sfixed32: a JSON number or a quoted one, integral and in range.</summary>
internal sealed class JsonInt32Reader : JsonValueReader<int>
{
    public static JsonInt32Reader Instance { get; } = new();

    public override bool TryRead(ref JsonInput input, int depth, out int value)
    {
        ref var reader = ref input.Reader;
        value = reader.TokenType switch
        {
            JsonTokenType.Number => reader.TryGetInt32(out var exact) ? exact : (int)JsonNumberReading.Integer(ref reader, int.MinValue, 2147483648.0),
            JsonTokenType.String => JsonNumberReading.Quoted<int>(ref reader),
            _ => throw JsonTokens.Unexpected(ref reader, "an int32 number or string"),
        };
        return true;
    }

    public override int ReadKey(ref Utf8JsonReader reader) => JsonNumberReading.Quoted<int>(ref reader);
}
