using System.Collections;
using System.Text.Json;
using Google.Protobuf;
using Google.Protobuf.Reflection;

namespace ProtoHttp.Json;

/// <summary>A map field: an object whose names are keys; a repeated key replaces the earlier entry, null clears the field.</summary>
internal sealed class JsonMapFieldReader(FieldDescriptor field, JsonValueReader keys, JsonValueReader values) : JsonFieldReader(field)
{
    private readonly IFieldAccessor _accessor = field.Accessor;

    public override void Read(ref JsonInput input, IMessage message, int depth)
    {
        ref var reader = ref input.Reader;

        // Through the non-generic dictionary: a plan closes no generic type over the map's key and value types.
        var map = (IDictionary)_accessor.GetValue(message);
        if (reader.TokenType == JsonTokenType.Null)
        {
            map.Clear();
            return;
        }

        if (reader.TokenType != JsonTokenType.StartObject)
        {
            throw JsonTokens.Unexpected(ref reader, "an object for a map");
        }

        while (reader.Read() && reader.TokenType != JsonTokenType.EndObject)
        {
            var key = keys.ReadKeyBoxed(ref reader);
            reader.Read();
            if (reader.TokenType == JsonTokenType.Null && !values.AcceptsNull)
            {
                throw new ValueFormatException("Map values must not be null.");
            }

            if (values.TryReadBoxed(ref input, depth, out var value))
            {
                map[key] = value;
            }
        }
    }
}
