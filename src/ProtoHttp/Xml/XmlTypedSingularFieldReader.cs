using Google.Protobuf;
using Google.Protobuf.Reflection;

namespace ProtoHttp.Xml;

/// <summary>A singular number or bool leaf set through a typed setter (<see cref="TypedFieldAccess"/>): no box per value.</summary>
internal sealed class XmlTypedSingularFieldReader<T>(FieldDescriptor field, XmlValueReader<T> value, Action<IMessage, T> setter) : XmlFieldReader(field)
{
    public override void Read(XmlMessageReader reader, IMessage message, string name, int depth) => setter(message, value.Read(reader, Field, name));
}
