using System.Text.Json;

namespace ProtoHttp.Json;

/// <summary>uint64, fixed64: usually quoted; a JSON number is read as a double first, as JsonParser does.</summary>
internal sealed class JsonUInt64Reader : JsonValueReader<ulong>
{
    public static JsonUInt64Reader Instance { get; } = new();

    public override bool TryRead(ref JsonInput input, int depth, out ulong value)
    {
        ref var reader = ref input.Reader;
        value = reader.TokenType switch
        {
            JsonTokenType.String => JsonNumberReading.Quoted<ulong>(ref reader),
            JsonTokenType.Number => (ulong)JsonNumberReading.Integer(ref reader, 0, 18446744073709551616.0),
            _ => throw JsonTokens.Unexpected(ref reader, "a uint64 string or number"),
        };
        return true;
    }

    public override ulong ReadKey(ref Utf8JsonReader reader) => JsonNumberReading.Quoted<ulong>(ref reader);
}
