using Google.Protobuf;
using Google.Protobuf.Reflection;

namespace ProtoHttp.Xml;

/// <summary>Reads one element of a field into a message, through the generated property where it can.</summary>
internal abstract class XmlFieldReader(FieldDescriptor field)
{
    public FieldDescriptor Field { get; } = field;

    /// <summary>On the field's start tag, named <paramref name="name"/>; returns after its end tag.</summary>
    public abstract void Read(XmlMessageReader reader, IMessage message, string name, int depth);

    /// <summary>
    /// The typed reader for a leaf <paramref name="field"/>, or the reflection one (enums, wrapper types, well-known
    /// types other than Timestamp, nested messages).
    /// </summary>
    public static XmlFieldReader Create(FieldDescriptor field)
    {
        if (field.IsMap)
        {
            return new XmlMapFieldReader(field);
        }

        var value = IsNested(field) ? null : XmlValueReaders.For(field);
        return value is null ? new XmlReflectionFieldReader(field)
            : field.IsRepeated ? value.Repeated(field)
            : value.Singular(field);
    }

    /// <summary>Whether the field's values are messages written as nested elements rather than text.</summary>
    public static bool IsNested(FieldDescriptor field) =>
        field.FieldType is FieldType.Message or FieldType.Group && !WellKnownText.IsText(field.MessageType);
}
