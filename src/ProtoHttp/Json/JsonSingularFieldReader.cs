using System.Text.Json;
using Google.Protobuf;
using Google.Protobuf.Reflection;

namespace ProtoHttp.Json;

/// <summary>A singular field set through its typed property setter; null clears it, as in JsonParser.</summary>
internal sealed class JsonSingularFieldReader<TMessage, T>(FieldDescriptor field, Action<TMessage, T> setter, JsonValueReader<T> value)
    : JsonFieldReader(field)
    where TMessage : class, IMessage
{
    public override void Read(ref JsonInput input, IMessage message, int depth)
    {
        if (input.Reader.TokenType == JsonTokenType.Null && !value.AcceptsNull)
        {
            Field.Accessor.Clear(message);
        }
        else if (value.TryRead(ref input, depth, out var read))
        {
            setter((TMessage)message, read);
        }
    }
}
