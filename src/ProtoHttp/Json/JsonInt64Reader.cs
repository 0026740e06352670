using System.Text.Json;

namespace ProtoHttp.Json;

/// <summary>int64, sint64, sfixed64: usually quoted; a JSON number is read as a double first, as JsonParser does.</summary>
internal sealed class JsonInt64Reader : JsonValueReader<long>
{
    public static JsonInt64Reader Instance { get; } = new();

    public override bool TryRead(ref JsonInput input, int depth, out long value)
    {
        ref var reader = ref input.Reader;
        value = reader.TokenType switch
        {
            JsonTokenType.String => JsonNumberReading.Quoted<long>(ref reader),
            JsonTokenType.Number => (long)JsonNumberReading.Integer(ref reader, long.MinValue, 9223372036854775808.0),
            _ => throw JsonTokens.Unexpected(ref reader, "an int64 string or number"),
        };
        return true;
    }

    public override long ReadKey(ref Utf8JsonReader reader) => JsonNumberReading.Quoted<long>(ref reader);
}
