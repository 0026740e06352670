using System.Reflection;
using Google.Protobuf;
using Google.Protobuf.Reflection;
using Type = System.Type;

namespace ProtoHttp.Xml;

/// <summary>Reads one element of a field into a message, through the generated property where it can.</summary>
internal abstract class XmlFieldReader(FieldDescriptor field)
{
    public FieldDescriptor Field { get; } = field;

    /// <summary>On the field's start tag, named <paramref name="name"/>; returns after its end tag.</summary>
    public abstract void Read(XmlMessageReader reader, IMessage message, string name, int depth);

    /// <summary>The typed reader for <paramref name="field"/> of the generated <paramref name="messageType"/>, or the reflection one.</summary>
    public static XmlFieldReader Create(Type messageType, FieldDescriptor field)
    {
        if (field.IsMap)
        {
            return new XmlMapFieldReader(field);
        }

        var property = GeneratedAccessors.Property(messageType, field);
        return (property is null ? null : CreateTyped(messageType, field, property)) ?? new XmlReflectionFieldReader(field);
    }

    /// <summary>Whether the field's values are messages written as nested elements rather than text.</summary>
    public static bool IsNested(FieldDescriptor field) =>
        field.FieldType is FieldType.Message or FieldType.Group && !WellKnownText.IsText(field.MessageType);

    private static XmlFieldReader? CreateTyped(Type messageType, FieldDescriptor field, PropertyInfo property)
    {
        var type = property.PropertyType;
        if (field.IsRepeated)
        {
            if (!GeneratedAccessors.IsRepeatedField(type))
            {
                return null;
            }

            var element = type.GetGenericArguments()[0];
            var getter = GeneratedAccessors.Getter(messageType, property.GetMethod!);
            if (IsNested(field))
            {
                return IsMessageClass(element) ? GeneratedAccessors.Create<XmlFieldReader>(typeof(XmlRepeatedMessageFieldReader<,>), [messageType, element], field, getter) : null;
            }

            return XmlValueReaders.For(field, element) is { } items
                ? GeneratedAccessors.Create<XmlFieldReader>(typeof(XmlRepeatedFieldReader<,>), [messageType, element], field, getter, items)
                : null;
        }

        if (property.SetMethod is not { IsPublic: true } set)
        {
            return null;
        }

        var setter = GeneratedAccessors.Setter(messageType, set);
        if (IsNested(field))
        {
            return IsMessageClass(type)
                ? GeneratedAccessors.Create<XmlFieldReader>(typeof(XmlMessageFieldReader<,>), [messageType, type], field, GeneratedAccessors.Getter(messageType, property.GetMethod!), setter)
                : null;
        }

        return XmlValueReaders.For(field, type) is { } value
            ? GeneratedAccessors.Create<XmlFieldReader>(typeof(XmlSingularFieldReader<,>), [messageType, type], field, setter, value)
            : null;
    }

    private static bool IsMessageClass(Type type) => type.IsClass && typeof(IMessage).IsAssignableFrom(type) && type.GetConstructor(Type.EmptyTypes) is not null;
}
