using Google.Protobuf;
using Google.Protobuf.Reflection;

namespace ProtoHttp.Xml;

/// <summary>A singular message field: its element's children are read into the field's message, created when unset.</summary>
internal sealed class XmlMessageFieldReader<TMessage, T>(FieldDescriptor field, Func<TMessage, T?> getter, Action<TMessage, T> setter) : XmlFieldReader(field)
    where TMessage : class, IMessage
    where T : class, IMessage, new()
{
    public override void Read(XmlMessageReader reader, IMessage message, string name, int depth)
    {
        var typed = (TMessage)message;
        var child = getter(typed);
        if (child is null)
        {
            child = new T();
            setter(typed, child);
        }

        reader.ReadFields(child, name, depth + 1);
    }
}
