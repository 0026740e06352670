using System.Text.Json;

namespace ProtoHttp.Json;

/// <summary>float: a JSON number (read as a double, then narrowed, as JsonParser does) or a quoted number.</summary>
internal sealed class JsonFloatReader : JsonValueReader<float>
{
    public static JsonFloatReader Instance { get; } = new();

    public override bool TryRead(ref JsonInput input, int depth, out float value)
    {
        ref var reader = ref input.Reader;
        switch (reader.TokenType)
        {
            case JsonTokenType.Number:
                var number = JsonNumberReading.Double(ref reader);
                value = (float)number;
                if (float.IsInfinity(value))
                {
                    throw new ValueFormatException($"Value out of range for float: {number}.");
                }

                return true;
            case JsonTokenType.String:
                value = JsonNumberReading.Quoted<float>(ref reader);
                return true;
            default:
                throw JsonTokens.Unexpected(ref reader, "a float number or string");
        }
    }
}
