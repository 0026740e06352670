using System.Text.Json;
using Google.Protobuf;
using Google.Protobuf.Reflection;

namespace ProtoHttp.Json;

/// <summary>A singular number, bool or enum field set through a typed setter (<see cref="TypedFieldAccess"/>): no box per value; null clears it.</summary>
internal sealed class JsonTypedSingularFieldReader<T>(FieldDescriptor field, JsonValueReader<T> value, Action<IMessage, T> setter) : JsonFieldReader(field, key: null)
{
    private readonly IFieldAccessor _accessor = field.Accessor;

    public override void Read(ref JsonInput input, IMessage message, int depth)
    {
        if (input.Reader.TokenType == JsonTokenType.Null && !value.AcceptsNull)
        {
            _accessor.Clear(message);
        }
        else if (value.TryRead(ref input, depth, out var read))
        {
            setter(message, read);
        }
    }
}
