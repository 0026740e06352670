using Google.Protobuf;
using Google.Protobuf.Collections;
using Google.Protobuf.Reflection;

namespace ProtoHttp.Xml;

/// <summary>One element of a repeated message field: a new message, read and then appended.</summary>
internal sealed class XmlRepeatedMessageFieldReader<TMessage, T>(FieldDescriptor field, Func<TMessage, RepeatedField<T>> getter) : XmlFieldReader(field)
    where TMessage : class, IMessage
    where T : class, IMessage, new()
{
    public override void Read(XmlMessageReader reader, IMessage message, string name, int depth)
    {
        var child = new T();
        reader.ReadFields(child, name, depth + 1);
        getter((TMessage)message).Add(child);
    }
}
