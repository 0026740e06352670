using Google.Protobuf.Reflection;

namespace ProtoHttp.Xml;

/// <summary>
/// Reads one value of type <typeparamref name="T"/>. Every reader derives from one closed instance of this type, so
/// the generic code over it (<see cref="XmlRepeatedFieldReader{T}"/>) is compiled ahead of time, value types included.
/// </summary>
internal abstract class XmlValueReader<T> : XmlValueReader
{
    /// <summary>On the leaf's start tag, named <paramref name="where"/>; returns after its end tag.</summary>
    /// <exception cref="InvalidMessageException">The text is not a value of the field's type.</exception>
    public abstract T Read(XmlMessageReader reader, FieldDescriptor field, string where);

    public sealed override object ReadBoxed(XmlMessageReader reader, FieldDescriptor field, string where) => Read(reader, field, where)!;

    // Typed where the runtime compiles code, so numbers and bools are not boxed (TypedFieldAccess).
    public sealed override XmlFieldReader Singular(FieldDescriptor field) =>
        TypedFieldAccess.Setter<T>(field) is { } setter
            ? new XmlTypedSingularFieldReader<T>(field, this, setter)
            : new XmlSingularFieldReader(field, this);

    public sealed override XmlFieldReader Repeated(FieldDescriptor field) => new XmlRepeatedFieldReader<T>(field, this);
}
