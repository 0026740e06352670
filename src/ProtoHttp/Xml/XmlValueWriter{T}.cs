using Google.Protobuf.Reflection;

namespace ProtoHttp.Xml;

/// <summary>
/// Writes one value of type <typeparamref name="T"/>. Every writer derives from one closed instance of this type, so
/// the generic code over it (<see cref="XmlRepeatedField{T}"/>) is compiled ahead of time, value types included.
/// </summary>
internal abstract class XmlValueWriter<T> : XmlValueWriter
{
    public abstract void Write(ref Utf8Output output, T value);

    /// <summary>Whether a proto3 field without presence holding this value is unset, as the binary encoding decides.</summary>
    public virtual bool IsDefault(T value) => false;

    // An enum's accessor returns the boxed enum, which unboxes as its underlying int.
    public sealed override void WriteBoxed(ref Utf8Output output, object value) => Write(ref output, (T)value);

    public sealed override bool IsDefaultBoxed(object value) => IsDefault((T)value);

    // Typed where the runtime compiles code, so numbers, bools and enums are not boxed (TypedFieldAccess).
    public sealed override XmlFieldWriter Singular(FieldDescriptor field, FieldPresence presence) =>
        TypedFieldAccess.Getter<T>(field) is { } getter
            ? new XmlTypedSingularField<T>(field, presence, this, getter)
            : new XmlSingularField(field, presence, this);

    public sealed override XmlFieldWriter Repeated(FieldDescriptor field) => new XmlRepeatedField<T>(field, this);
}
