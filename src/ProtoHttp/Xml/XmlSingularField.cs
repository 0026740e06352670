using Google.Protobuf;
using Google.Protobuf.Reflection;

namespace ProtoHttp.Xml;

/// <summary>A singular field read through a typed getter, so scalars are never boxed.</summary>
internal sealed class XmlSingularField<TMessage, T>(
    string name, Func<TMessage, T> getter, FieldPresence presence, FieldDescriptor field, XmlValueWriter<T> writer) : XmlFieldWriter(name)
    where TMessage : class, IMessage
{
    public override void Write(ref Utf8Output output, IMessage message)
    {
        if (presence == FieldPresence.HasValue && !field.Accessor.HasValue(message))
        {
            return;
        }

        var value = getter((TMessage)message);
        if (presence == FieldPresence.NotNull ? value is null : presence == FieldPresence.NotDefault && writer.IsDefault(value))
        {
            return;
        }

        WriteElement(ref output, writer, value);
    }
}
