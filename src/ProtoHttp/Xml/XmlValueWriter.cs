using Google.Protobuf.Reflection;

namespace ProtoHttp.Xml;

/// <summary>
/// Writes the values of one field type as an element's content (docs/protocol.md section 4). The members here take
/// values as protobuf reflection gives them, boxed, so a plan needs no generic type made at run time.
/// </summary>
internal abstract class XmlValueWriter
{
    /// <summary>Writes a value as <see cref="IFieldAccessor"/> returns it.</summary>
    public abstract void WriteBoxed(ref Utf8Output output, object value);

    /// <summary>Whether a proto3 field without presence holding this value is unset, as the binary encoding decides.</summary>
    public abstract bool IsDefaultBoxed(object value);

    /// <summary>A writer for a singular field of this writer's values.</summary>
    public abstract XmlFieldWriter Singular(FieldDescriptor field, FieldPresence presence);

    /// <summary>A writer for a repeated field of this writer's values.</summary>
    public abstract XmlFieldWriter Repeated(FieldDescriptor field);
}
