using System.Collections;
using System.Text.Json;
using Google.Protobuf;
using Google.Protobuf.Reflection;

namespace ProtoHttp.Json;

/// <summary>A repeated field: an array whose elements are appended (null elements refused); null clears the field.</summary>
internal sealed class JsonRepeatedFieldReader<T>(FieldDescriptor field, JsonValueReader<T> value) : JsonFieldReader(field)
{
    private readonly IFieldAccessor _accessor = field.Accessor;

    public override void Read(ref JsonInput input, IMessage message, int depth)
    {
        ref var reader = ref input.Reader;
        var list = (IList)_accessor.GetValue(message);
        if (reader.TokenType == JsonTokenType.Null)
        {
            list.Clear();
            return;
        }

        if (reader.TokenType != JsonTokenType.StartArray)
        {
            throw JsonTokens.Unexpected(ref reader, "an array");
        }

        // A RepeatedField<T> of the reader's T takes elements unboxed; lists of messages, enums and wrappers (whose C#
        // element types are the message class, the enum, a nullable scalar) take them through IList.
        var typed = list as ICollection<T>;
        while (reader.Read() && reader.TokenType != JsonTokenType.EndArray)
        {
            if (reader.TokenType == JsonTokenType.Null && !value.AcceptsNull)
            {
                throw new ValueFormatException("Repeated field elements cannot be null.");
            }

            if (value.TryRead(ref input, depth, out var element))
            {
                if (typed is not null)
                {
                    typed.Add(element);
                }
                else
                {
                    list.Add(element);
                }
            }
        }
    }
}
