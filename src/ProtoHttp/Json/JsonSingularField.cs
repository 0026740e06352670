using Google.Protobuf;
using Google.Protobuf.Reflection;

namespace ProtoHttp.Json;

/// <summary>A singular field, read through the generated property by protobuf's own accessor.</summary>
internal sealed class JsonSingularField(byte[] name, FieldDescriptor field, FieldPresence presence, JsonValueWriter writer) : JsonFieldWriter(name)
{
    private readonly IFieldAccessor _accessor = field.Accessor;

    public override void Write(ref Utf8Output output, IMessage message, ref bool first)
    {
        if (presence == FieldPresence.HasValue && !_accessor.HasValue(message))
        {
            return;
        }

        var value = _accessor.GetValue(message);
        if (presence == FieldPresence.NotNull ? value is null : presence == FieldPresence.NotDefault && writer.IsDefaultBoxed(value))
        {
            return;
        }

        WriteName(ref output, ref first);
        writer.WriteBoxed(ref output, value);
    }
}
