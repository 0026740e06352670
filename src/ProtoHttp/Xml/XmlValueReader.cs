using Google.Protobuf.Reflection;

namespace ProtoHttp.Xml;

/// <summary>Reads a leaf element's text as one value of a field's C# type.</summary>
internal abstract class XmlValueReader<T>
{
    /// <summary>On the leaf's start tag, named <paramref name="where"/>; returns after its end tag.</summary>
    /// <exception cref="InvalidMessageException">The text is not a value of the field's type.</exception>
    public abstract T Read(XmlMessageReader reader, FieldDescriptor field, string where);
}
