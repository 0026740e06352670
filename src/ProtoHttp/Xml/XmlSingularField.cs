using Google.Protobuf;
using Google.Protobuf.Reflection;

namespace ProtoHttp.Xml;

/// <summary>A singular field, read through the generated property by protobuf's own accessor.</summary>
internal sealed class XmlSingularField(FieldDescriptor field, FieldPresence presence, XmlValueWriter writer) : XmlFieldWriter(field.Name)
{
    private readonly IFieldAccessor _accessor = field.Accessor;

    public override void Write(ref Utf8Output output, IMessage message)
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

        WriteStart(ref output);
        writer.WriteBoxed(ref output, value);
        WriteEnd(ref output);
    }
}
