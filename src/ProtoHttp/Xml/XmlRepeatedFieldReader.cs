using Google.Protobuf;
using Google.Protobuf.Collections;
using Google.Protobuf.Reflection;

namespace ProtoHttp.Xml;

/// <summary>One element of a repeated leaf field, appended to the generated list.</summary>
internal sealed class XmlRepeatedFieldReader<TMessage, T>(FieldDescriptor field, Func<TMessage, RepeatedField<T>> getter, XmlValueReader<T> value) : XmlFieldReader(field)
    where TMessage : class, IMessage
{
    public override void Read(XmlMessageReader reader, IMessage message, string name, int depth) =>
        getter((TMessage)message).Add(value.Read(reader, Field, name));
}
