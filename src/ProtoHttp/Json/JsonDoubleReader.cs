using System.Text.Json;

namespace ProtoHttp.Json;

/// <summary>double: a JSON number, or a quoted number including "NaN", "Infinity" and "-Infinity".</summary>
internal sealed class JsonDoubleReader : JsonValueReader<double>
{
    public static JsonDoubleReader Instance { get; } = new();

    public override bool TryRead(ref JsonInput input, int depth, out double value)
    {
        ref var reader = ref input.Reader;
        value = reader.TokenType switch
        {
            JsonTokenType.Number => JsonNumberReading.Double(ref reader),
            JsonTokenType.String => JsonNumberReading.Quoted<double>(ref reader),
            _ => throw JsonTokens.Unexpected(ref reader, "a double number or string"),
        };
        return true;
    }
}
