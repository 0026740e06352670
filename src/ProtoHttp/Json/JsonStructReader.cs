using System.Text.Json;
using Google.Protobuf;
using Google.Protobuf.WellKnownTypes;

namespace ProtoHttp.Json;

/// <summary>
/// google.protobuf.Struct, Value and ListValue: arbitrary JSON (docs/protocol.md section 9). A Value is any JSON value,
/// <c>null</c> included (NullValue); a Struct is an object of Values, a ListValue an array of them. Each counts as a
/// nested message, as JsonParser counts them; a key given twice in a Struct keeps its last value, as in any map.
/// </summary>
internal sealed class JsonStructReader(JsonMessageReader owner, JsonStructReader.Kind kind) : JsonValueReader<IMessage>
{
    public enum Kind
    {
        Struct,
        Value,
        ListValue,
    }

    public override bool AcceptsNull => kind == Kind.Value;

    public override bool TryRead(ref JsonInput input, int depth, out IMessage value)
    {
        value = kind switch
        {
            Kind.Struct => ReadStruct(ref input, depth + 1),
            Kind.ListValue => ReadList(ref input, depth + 1),
            _ => ReadValue(ref input, depth + 1),
        };
        return true;
    }

    // Each reads the value at the current token as a message at nesting level `level`.
    private Value ReadValue(ref JsonInput input, int level)
    {
        owner.CheckDepth(level);
        ref var reader = ref input.Reader;
        return reader.TokenType switch
        {
            JsonTokenType.Null => Value.ForNull(),
            JsonTokenType.True => Value.ForBool(true),
            JsonTokenType.False => Value.ForBool(false),
            JsonTokenType.String => Value.ForString(reader.GetString()!),
            JsonTokenType.Number => Value.ForNumber(JsonNumberReading.Double(ref reader)),
            JsonTokenType.StartObject => new Value { StructValue = ReadStruct(ref input, level + 1) },
            JsonTokenType.StartArray => new Value { ListValue = ReadList(ref input, level + 1) },
            _ => throw JsonTokens.Unexpected(ref reader, "a JSON value"),
        };
    }

    private Struct ReadStruct(ref JsonInput input, int level)
    {
        owner.CheckDepth(level);
        ref var reader = ref input.Reader;
        if (reader.TokenType != JsonTokenType.StartObject)
        {
            throw JsonTokens.Unexpected(ref reader, "an object for Struct");
        }

        var result = new Struct();
        while (reader.Read() && reader.TokenType == JsonTokenType.PropertyName)
        {
            var key = reader.GetString()!;
            reader.Read();
            result.Fields[key] = ReadValue(ref input, level + 1);
        }

        return result;
    }

    private ListValue ReadList(ref JsonInput input, int level)
    {
        owner.CheckDepth(level);
        ref var reader = ref input.Reader;
        if (reader.TokenType != JsonTokenType.StartArray)
        {
            throw JsonTokens.Unexpected(ref reader, "an array for ListValue");
        }

        var result = new ListValue();
        while (reader.Read() && reader.TokenType != JsonTokenType.EndArray)
        {
            result.Values.Add(ReadValue(ref input, level + 1));
        }

        return result;
    }
}
