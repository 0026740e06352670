using System.Text.Json;
using Google.Protobuf;
using Google.Protobuf.Collections;
using Google.Protobuf.Reflection;

namespace ProtoHttp.Json;

/// <summary>A map field: an object whose names are keys; a repeated key replaces the earlier entry, null clears the field.</summary>
internal sealed class JsonMapFieldReader<TMessage, TKey, TValue>(
    FieldDescriptor field, Func<TMessage, MapField<TKey, TValue>> getter, JsonValueReader<TKey> keys, JsonValueReader<TValue> values)
    : JsonFieldReader(field)
    where TMessage : class, IMessage
    where TKey : notnull
{
    public override void Read(ref JsonInput input, IMessage message, int depth)
    {
        ref var reader = ref input.Reader;
        var map = getter((TMessage)message);
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
            var key = keys.ReadKey(ref reader);
            reader.Read();
            if (reader.TokenType == JsonTokenType.Null && !values.AcceptsNull)
            {
                throw new ValueFormatException("Map values must not be null.");
            }

            if (values.TryRead(ref input, depth, out var value))
            {
                map[key] = value;
            }
        }
    }
}
