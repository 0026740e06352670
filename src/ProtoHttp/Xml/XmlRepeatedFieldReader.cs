using System.Collections;
using Google.Protobuf;
using Google.Protobuf.Reflection;

namespace ProtoHttp.Xml;

/// <summary>One element of a repeated leaf field, appended to the generated list.</summary>
internal sealed class XmlRepeatedFieldReader<T>(FieldDescriptor field, XmlValueReader<T> value) : XmlFieldReader(field)
{
    private readonly IFieldAccessor _accessor = field.Accessor;

    public override void Read(XmlMessageReader reader, IMessage message, string name, int depth)
    {
        // Leaf readers are of the list's own element type, so the item is appended unboxed.
        var list = _accessor.GetValue(message);
        var item = value.Read(reader, Field, name);
        if (list is ICollection<T> typed)
        {
            typed.Add(item);
        }
        else
        {
            ((IList)list).Add(item);
        }
    }
}
