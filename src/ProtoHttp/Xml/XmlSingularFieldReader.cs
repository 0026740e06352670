using Google.Protobuf;
using Google.Protobuf.Reflection;

namespace ProtoHttp.Xml;

/// <summary>A singular leaf field, parsed by a typed value reader and stored through protobuf's own accessor.</summary>
internal sealed class XmlSingularFieldReader(FieldDescriptor field, XmlValueReader value) : XmlFieldReader(field)
{
    private readonly IFieldAccessor _accessor = field.Accessor;

    public override void Read(XmlMessageReader reader, IMessage message, string name, int depth) =>
        _accessor.SetValue(message, value.ReadBoxed(reader, Field, name));
}
