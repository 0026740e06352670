using System.Text.Json;
using Google.Protobuf;
using Google.Protobuf.Collections;
using Google.Protobuf.Reflection;

namespace ProtoHttp.Json;

/// <summary>A repeated field: an array whose elements are appended (null elements refused); null clears the field.</summary>
internal sealed class JsonRepeatedFieldReader<TMessage, T>(FieldDescriptor field, Func<TMessage, RepeatedField<T>> getter, JsonValueReader<T> value)
    : JsonFieldReader(field)
    where TMessage : class, IMessage
{
    public override void Read(ref JsonInput input, IMessage message, int depth)
    {
        ref var reader = ref input.Reader;
        var list = getter((TMessage)message);
        if (reader.TokenType == JsonTokenType.Null)
        {
            list.Clear();
            return;
        }

        if (reader.TokenType != JsonTokenType.StartArray)
        {
            throw JsonTokens.Unexpected(ref reader, "an array");
        }

        while (reader.Read() && reader.TokenType != JsonTokenType.EndArray)
        {
            if (reader.TokenType == JsonTokenType.Null && !value.AcceptsNull)
            {
                throw new ValueFormatException("Repeated field elements cannot be null.");
            }

            if (value.TryRead(ref input, depth, out var element))
            {
                list.Add(element);
            }
        }
    }
}
