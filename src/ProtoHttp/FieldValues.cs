using System.Collections;
using Google.Protobuf;
using Google.Protobuf.Reflection;
using Google.Protobuf.WellKnownTypes;

namespace ProtoHttp;

/// <summary>Stores parsed values into a message through protobuf reflection; shared by the XML and form readers.</summary>
internal static class FieldValues
{
    /// <summary>Sets a singular field.</summary>
    public static void Set(IMessage message, FieldDescriptor field, object value) => field.Accessor.SetValue(message, value);

    /// <summary>Appends one element to a repeated field.</summary>
    public static void Add(IMessage message, FieldDescriptor field, object value) => ((IList)field.Accessor.GetValue(message)).Add(value);

    /// <summary>Sets one entry of a map field; a later entry with the same key replaces an earlier one, as in protobuf.</summary>
    public static void Put(IMessage message, FieldDescriptor field, object key, object value) =>
        ((IDictionary)field.Accessor.GetValue(message))[key] = value;

    /// <summary>The value of a singular message field, created and set first when it is unset.</summary>
    public static IMessage Child(IMessage message, FieldDescriptor field)
    {
        if (field.Accessor.GetValue(message) is IMessage existing)
        {
            return existing;
        }

        var child = MessageFactory.Create(field.MessageType);
        field.Accessor.SetValue(message, child);
        return child;
    }

    /// <summary>Another member of <paramref name="field"/>'s oneof that is already set, if any.</summary>
    public static FieldDescriptor? OneofConflict(IMessage message, FieldDescriptor field) =>
        field.RealContainingOneof?.Accessor.GetCaseFieldDescriptor(message) is { } current && current != field ? current : null;

    /// <summary>The key and value fields of a map field's entry type.</summary>
    public static (FieldDescriptor Key, FieldDescriptor Value) EntryFields(FieldDescriptor map) =>
        (map.MessageType.FindFieldByNumber(1), map.MessageType.FindFieldByNumber(2));

    /// <summary>The value a map entry gets when its input names none: the type's default, an empty message for messages.</summary>
    public static object DefaultValue(FieldDescriptor field) => field.FieldType switch
    {
        // C# holds a wrapper-typed value as its bare scalar.
        FieldType.Message or FieldType.Group when field.MessageType.File == WrappersReflection.Descriptor
            => DefaultValue(field.MessageType.FindFieldByNumber(1)),
        FieldType.Message or FieldType.Group => MessageFactory.Create(field.MessageType),
        FieldType.String => "",
        FieldType.Bytes => ByteString.Empty,
        FieldType.Enum => 0,
        FieldType.Bool => false,
        _ => FieldText.ParseScalar(field.FieldType, "0"),
    };
}
