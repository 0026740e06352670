using Google.Protobuf.Reflection;

namespace ProtoHttp.Xml;

/// <summary>
/// Reads a leaf element's text as one value of a field type. The members here give values boxed, as protobuf
/// reflection stores them, so a plan needs no generic type made at run time.
/// </summary>
internal abstract class XmlValueReader
{
    /// <summary>As <see cref="XmlValueReader{T}.Read"/>, the value boxed for <see cref="IFieldAccessor.SetValue"/>.</summary>
    public abstract object ReadBoxed(XmlMessageReader reader, FieldDescriptor field, string where);

    /// <summary>A reader for a singular field of this reader's values.</summary>
    public abstract XmlFieldReader Singular(FieldDescriptor field);

    /// <summary>A reader for a repeated field of this reader's values.</summary>
    public abstract XmlFieldReader Repeated(FieldDescriptor field);
}
