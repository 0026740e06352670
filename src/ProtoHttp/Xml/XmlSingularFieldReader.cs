using Google.Protobuf;
using Google.Protobuf.Reflection;

namespace ProtoHttp.Xml;

/// <summary>A singular leaf field, parsed by a typed value reader and stored through the generated setter: no boxing.</summary>
internal sealed class XmlSingularFieldReader<TMessage, T>(FieldDescriptor field, Action<TMessage, T> setter, XmlValueReader<T> value) : XmlFieldReader(field)
    where TMessage : class, IMessage
{
    public override void Read(XmlMessageReader reader, IMessage message, string name, int depth) =>
        setter((TMessage)message, value.Read(reader, Field, name));
}
