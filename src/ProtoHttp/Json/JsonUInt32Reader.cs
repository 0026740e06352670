using System.Text.Json;

namespace ProtoHttp.Json;

/// <summary>uint32, fixed32: a JSON number or a quoted one, integral and in range.</summary>
internal sealed class JsonUInt32Reader : JsonValueReader<uint>
{
    public static JsonUInt32Reader Instance { get; } = new();

    public override bool TryRead(ref JsonInput input, int depth, out uint value)
    {
        ref var reader = ref input.Reader;
        value = reader.TokenType switch
        {
            JsonTokenType.Number => reader.TryGetUInt32(out var exact) ? exact : (uint)JsonNumberReading.Integer(ref reader, 0, 4294967296.0),
            JsonTokenType.String => JsonNumberReading.Quoted<uint>(ref reader),
            _ => throw JsonTokens.Unexpected(ref reader, "a uint32 number or string"),
        };
        return true;
    }

    public override uint ReadKey(ref Utf8JsonReader reader) => JsonNumberReading.Quoted<uint>(ref reader);
}
