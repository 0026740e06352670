using System.Reflection;
using Google.Protobuf;
using Google.Protobuf.Reflection;
using Timestamp = Google.Protobuf.WellKnownTypes.Timestamp;
using Type = System.Type;

namespace ProtoHttp.Json;

/// <summary>Builds a <see cref="JsonMessagePlan"/>'s field writers from the descriptor and the generated C# properties.</summary>
internal static class JsonPlanBuilder
{
    /// <summary>The field writers in field-number order (JsonFormatter's), or null when JsonFormatter must write the whole message.</summary>
    public static JsonFieldWriter[]? Build(JsonMessageWriter owner, MessageDescriptor descriptor)
    {
        if (descriptor.ClrType is null)
        {
            return null;
        }

        var fields = new List<JsonFieldWriter>();
        foreach (var field in descriptor.Fields.InFieldNumberOrder())
        {
            var writer = BuildField(owner, descriptor.ClrType, field);
            if (writer is null)
            {
                return null;
            }

            fields.Add(writer);
        }

        // After the fields, as JsonFormatter would place them if it wrote extensions (it writes none).
        fields.AddRange(owner.Extensions.For(descriptor).Where(extension => !extension.IsRepeated)
            .Select(extension => new JsonExtensionFieldWriter(extension, owner)));
        return [.. fields];
    }

    private static JsonFieldWriter? BuildField(JsonMessageWriter owner, Type messageType, FieldDescriptor field)
    {
        var name = JsonStringText.Encode(owner.PreserveProtoFieldNames ? field.Name : field.JsonName);
        var property = GeneratedAccessors.Property(messageType, field);
        var native = property?.GetMethod is { } get ? BuildNative(owner, messageType, field, name, get) : null;
        if (native is not null)
        {
            return native;
        }

        // Collections and fields with presence can be checked through reflection; implicit-presence scalars cannot.
        return field.IsRepeated || field.HasPresence ? new JsonDelegatedField(name, field, owner) : null;
    }

    private static JsonFieldWriter? BuildNative(JsonMessageWriter owner, Type messageType, FieldDescriptor field, byte[] name, MethodInfo get)
    {
        var type = get.ReturnType;
        var getter = GeneratedAccessors.Getter(messageType, get);
        if (field.IsMap)
        {
            if (!GeneratedAccessors.IsMapField(type))
            {
                return null;
            }

            var args = type.GetGenericArguments();
            var keys = ValueWriter(owner, field.MessageType.FindFieldByNumber(1), args[0], mapKey: true);
            var values = ValueWriter(owner, field.MessageType.FindFieldByNumber(2), args[1], mapKey: false);
            return keys is null || values is null ? null
                : GeneratedAccessors.Create<JsonFieldWriter>(typeof(JsonMapField<,,>), [messageType, args[0], args[1]], name, getter, keys, values);
        }

        if (field.IsRepeated)
        {
            if (!GeneratedAccessors.IsRepeatedField(type))
            {
                return null;
            }

            var element = type.GetGenericArguments()[0];
            var writer = ValueWriter(owner, field, element, mapKey: false);
            return writer is null ? null : GeneratedAccessors.Create<JsonFieldWriter>(typeof(JsonRepeatedField<,>), [messageType, element], name, getter, writer);
        }

        var single = ValueWriter(owner, field, type, mapKey: false);
        var presence = field.FieldType is FieldType.Message or FieldType.Group ? FieldPresence.NotNull
            : field.HasPresence ? FieldPresence.HasValue
            : FieldPresence.NotDefault;
        return single is null ? null : GeneratedAccessors.Create<JsonFieldWriter>(typeof(JsonSingularField<,>), [messageType, type], name, getter, presence, field, single);
    }

    // A writer whose T is exactly the generated property's element type, or null when the native writer has none.
    private static object? ValueWriter(JsonMessageWriter owner, FieldDescriptor field, Type type, bool mapKey)
    {
        object? writer = field.FieldType switch
        {
            FieldType.Double => JsonDoubleWriter.Instance,
            FieldType.Float => JsonFloatWriter.Instance,
            FieldType.Int64 or FieldType.SInt64 or FieldType.SFixed64 => JsonInt64Writer.Instance,
            FieldType.UInt64 or FieldType.Fixed64 => JsonUInt64Writer.Instance,
            FieldType.Int32 or FieldType.SInt32 or FieldType.SFixed32 => new JsonInt32Writer(quoted: mapKey),
            FieldType.UInt32 or FieldType.Fixed32 => new JsonUInt32Writer(quoted: mapKey),
            FieldType.Bool => new JsonBoolWriter(quoted: mapKey),
            FieldType.String => JsonStringValueWriter.Instance,
            FieldType.Bytes => JsonBytesWriter.Instance,
            FieldType.Enum when type == typeof(Google.Protobuf.WellKnownTypes.NullValue) => JsonNullValueWriter.Instance,
            FieldType.Enum when type.IsEnum && Enum.GetUnderlyingType(type) == typeof(int) =>
                Activator.CreateInstance(typeof(JsonEnumWriter<>).MakeGenericType(type)),
            FieldType.Message or FieldType.Group => MessageWriter(owner, field.MessageType, type),
            _ => null,
        };
        return writer is not null && typeof(JsonValueWriter<>).MakeGenericType(type).IsInstanceOfType(writer) ? writer : null;
    }

    private static object? MessageWriter(JsonMessageWriter owner, MessageDescriptor descriptor, Type type)
    {
        // Wrapper fields are nullable scalars in C#, not messages: those fields are delegated whole.
        if (!typeof(IMessage).IsAssignableFrom(type) || !type.IsClass)
        {
            return null;
        }

        if (type == typeof(Timestamp))
        {
            return new JsonTimestampWriter(owner);
        }

        if (type == typeof(Google.Protobuf.WellKnownTypes.Any))
        {
            return owner.AnyWriter;
        }

        return JsonMessageWriter.IsWellKnown(descriptor)
            ? Activator.CreateInstance(typeof(JsonDelegatedValueWriter<>).MakeGenericType(type), owner)
            : Activator.CreateInstance(typeof(JsonMessageValueWriter<>).MakeGenericType(type), owner, descriptor);
    }
}
