using Google.Protobuf.Reflection;
using Google.Protobuf.WellKnownTypes;

namespace ProtoHttp.Json;

/// <summary>
/// Builds a <see cref="JsonMessagePlan"/>'s field writers from the descriptor. Values are read through protobuf's
/// own field accessors and written by writers of fixed types, so no generic type is made at run time (Native AOT).
/// </summary>
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
            var writer = BuildField(owner, field);
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

    private static JsonFieldWriter? BuildField(JsonMessageWriter owner, FieldDescriptor field)
    {
        var name = JsonStringText.Encode(owner.PreserveProtoFieldNames ? field.Name : field.JsonName);
        var native = BuildNative(owner, field, name);
        if (native is not null)
        {
            return native;
        }

        // Collections and fields with presence can be checked through reflection; implicit-presence scalars cannot.
        return field.IsRepeated || field.HasPresence ? new JsonDelegatedField(name, field, owner) : null;
    }

    private static JsonFieldWriter? BuildNative(JsonMessageWriter owner, FieldDescriptor field, byte[] name)
    {
        if (field.IsMap)
        {
            var keys = ValueWriter(owner, field.MessageType.FindFieldByNumber(1), mapKey: true);
            var values = ValueWriter(owner, field.MessageType.FindFieldByNumber(2), mapKey: false);
            return keys is null || values is null ? null : new JsonMapField(name, field, keys, values);
        }

        var writer = ValueWriter(owner, field, mapKey: false);
        if (writer is null || field.IsRepeated)
        {
            return writer?.Repeated(name, field);
        }

        var presence = field.FieldType is FieldType.Message or FieldType.Group ? FieldPresence.NotNull
            : field.HasPresence ? FieldPresence.HasValue
            : FieldPresence.NotDefault;
        return writer.Singular(name, field, presence);
    }

    // The writer for the field's values, or null when the native writer has none.
    private static JsonValueWriter? ValueWriter(JsonMessageWriter owner, FieldDescriptor field, bool mapKey) => field.FieldType switch
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
        FieldType.Enum when field.EnumType.FullName == "google.protobuf.NullValue" => JsonNullValueWriter.Instance,
        FieldType.Enum => new JsonEnumWriter(field.EnumType),
        FieldType.Message or FieldType.Group => MessageWriter(owner, field.MessageType),
        _ => null,
    };

    private static JsonValueWriter? MessageWriter(JsonMessageWriter owner, MessageDescriptor descriptor)
    {
        // Wrapper fields are nullable scalars in C#, not messages: those fields are delegated whole.
        if (descriptor.File == WrappersReflection.Descriptor || descriptor.ClrType is null)
        {
            return null;
        }

        if (descriptor.FullName == Timestamp.Descriptor.FullName)
        {
            return new JsonTimestampWriter(owner);
        }

        if (descriptor.FullName == Any.Descriptor.FullName)
        {
            return owner.AnyWriter;
        }

        return JsonMessageWriter.IsWellKnown(descriptor) ? new JsonDelegatedValueWriter(owner) : new JsonMessageValueWriter(owner, descriptor);
    }
}
