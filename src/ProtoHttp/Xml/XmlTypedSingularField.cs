using Google.Protobuf;
using Google.Protobuf.Reflection;

namespace ProtoHttp.Xml;

/// <summary>A singular number, bool or enum field read through a typed getter (<see cref="TypedFieldAccess"/>): no box per value.</summary>
internal sealed class XmlTypedSingularField<T>(FieldDescriptor field, FieldPresence presence, XmlValueWriter<T> writer, Func<IMessage, T> getter)
    : XmlFieldWriter(field.Name)
{
    private readonly IFieldAccessor _accessor = field.Accessor;

    public override void Write(ref Utf8Output output, IMessage message)
    {
        if (presence == FieldPresence.HasValue && !_accessor.HasValue(message))
        {
            return;
        }

        var value = getter(message);
        if (presence == FieldPresence.NotDefault && writer.IsDefault(value))
        {
            return;
        }

        WriteStart(ref output);
        writer.Write(ref output, value);
        WriteEnd(ref output);
    }
}
