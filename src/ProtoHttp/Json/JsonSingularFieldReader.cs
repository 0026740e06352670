using System.Text.Json;
using Google.Protobuf;
using Google.Protobuf.Reflection;

namespace ProtoHttp.Json;

/// <summary>
/// A singular field (or a singular proto2 extension, keyed <c>[full.name]</c> as the protobuf JSON mapping says),
/// set through protobuf's own accessor; null clears it, as in JsonParser.
/// </summary>
internal sealed class JsonSingularFieldReader(FieldDescriptor field, JsonValueReader value, string? key = null)
    : JsonFieldReader(field, key)
{
    private readonly IFieldAccessor _accessor = field.Accessor;

    public override void Read(ref JsonInput input, IMessage message, int depth)
    {
        if (input.Reader.TokenType == JsonTokenType.Null && !value.AcceptsNull)
        {
            _accessor.Clear(message);
        }
        else if (value.TryReadBoxed(ref input, depth, out var read))
        {
            // An enum is read as its int, which the accessor unboxes as the field's enum type.
            _accessor.SetValue(message, read);
        }
    }
}
