using System.Text.Json;

namespace ProtoHttp.Json;

/// <summary>string (and StringValue): a JSON string only.</summary>
internal sealed class JsonStringReader : JsonValueReader<string>
{
    public static JsonStringReader Instance { get; } = new();

    public override bool TryRead(ref JsonInput input, int depth, out string value)
    {
        ref var reader = ref input.Reader;
        value = reader.TokenType == JsonTokenType.String ? reader.GetString()! : throw JsonTokens.Unexpected(ref reader, "a string");
        return true;
    }

    public override string ReadKey(ref Utf8JsonReader reader) => reader.GetString()!;
}
