using Google.Protobuf.Reflection;
using Google.Protobuf.WellKnownTypes;

namespace ProtoHttp.Json;

/// <summary>
/// Builds a <see cref="JsonReadPlan"/>'s field readers from the descriptor. Values are stored through protobuf's own
/// field accessors by readers of fixed types, so no generic type is made at run time (Native AOT).
/// </summary>
internal static class JsonReadPlanBuilder
{
    /// <summary>
    /// The field readers, or null when the type is read whole by <see cref="WellKnownMessageReader"/> (or has no
    /// generated class to read into).
    /// </summary>
    public static JsonFieldReader[]? Build(JsonMessageReader owner, MessageDescriptor descriptor)
    {
        if (descriptor.ClrType is null || HasOwnJsonForm(descriptor))
        {
            return null;
        }

        var fields = new List<JsonFieldReader>();
        foreach (var field in descriptor.Fields.InDeclarationOrder())
        {
            var reader = BuildField(owner, field);
            if (reader is null)
            {
                return null;
            }

            fields.Add(reader);
        }

        // Singular extensions only: a repeated one stays an unknown name (400, or skipped when unknown fields are ignored).
        foreach (var extension in owner.Extensions.For(descriptor))
        {
            if (!extension.IsRepeated && ValueReader(owner, extension) is { } value)
            {
                fields.Add(new JsonSingularFieldReader(extension, value, $"[{extension.FullName}]"));
            }
        }

        return [.. fields];
    }

    private static JsonFieldReader? BuildField(JsonMessageReader owner, FieldDescriptor field)
    {
        if (field.IsMap)
        {
            var keys = KeyReader(field.MessageType.FindFieldByNumber(1));
            var values = ValueReader(owner, field.MessageType.FindFieldByNumber(2));
            return keys is null || values is null ? null : new JsonMapFieldReader(field, keys, values);
        }

        var value = ValueReader(owner, field);
        return value is null ? null
            : field.IsRepeated ? value.Repeated(field)
            : value.Singular(field);
    }

    // Map keys are JSON names: strings, integers and bools only, as JsonParser allows.
    private static JsonValueReader? KeyReader(FieldDescriptor field) => field.FieldType switch
    {
        FieldType.String or FieldType.Bool or FieldType.Int32 or FieldType.SInt32 or FieldType.SFixed32 or FieldType.UInt32 or FieldType.Fixed32
            or FieldType.Int64 or FieldType.SInt64 or FieldType.SFixed64 or FieldType.UInt64 or FieldType.Fixed64 => ValueReader(owner: null, field),
        _ => null,
    };

    // The reader for the field's values, or null when the native reader has none.
    private static JsonValueReader? ValueReader(JsonMessageReader? owner, FieldDescriptor field) => field.FieldType switch
    {
        FieldType.Double => JsonDoubleReader.Instance,
        FieldType.Float => JsonFloatReader.Instance,
        FieldType.Int64 or FieldType.SInt64 or FieldType.SFixed64 => JsonInt64Reader.Instance,
        FieldType.UInt64 or FieldType.Fixed64 => JsonUInt64Reader.Instance,
        FieldType.Int32 or FieldType.SInt32 or FieldType.SFixed32 => JsonInt32Reader.Instance,
        FieldType.UInt32 or FieldType.Fixed32 => JsonUInt32Reader.Instance,
        FieldType.Bool => JsonBoolReader.Instance,
        FieldType.String => JsonStringReader.Instance,
        FieldType.Bytes => JsonBytesReader.Instance,
        FieldType.Enum when owner is not null => new JsonEnumReader(owner, field.EnumType),
        FieldType.Message or FieldType.Group when owner is not null => MessageReader(owner, field.MessageType),
        _ => null,
    };

    private static JsonValueReader? MessageReader(JsonMessageReader owner, MessageDescriptor descriptor)
    {
        // C# exposes wrappers as nullable scalars (string and bytes ones as the plain types): read as the bare
        // scalar, which the accessor or the list stores as the nullable.
        if (descriptor.File == WrappersReflection.Descriptor)
        {
            return ValueReader(owner, descriptor.FindFieldByNumber(1));
        }

        if (descriptor.ClrType is null)
        {
            return null;
        }

        return OwnFormReader(owner, descriptor) ?? new JsonMessageValueReader(owner, descriptor);
    }

    /// <summary>
    /// For a type read whole rather than through a plan (the root, an Any's "value"): a reader whose values are the
    /// messages themselves, wrappers included; null for a type without a generated class.
    /// </summary>
    public static JsonValueReader? WellKnownMessageReader(JsonMessageReader owner, MessageDescriptor descriptor) =>
        descriptor.ClrType is null ? null
        : descriptor.File == WrappersReflection.Descriptor ? new JsonWrapperMessageReader(descriptor, ValueReader(owner, descriptor.FindFieldByNumber(1))!)
        : OwnFormReader(owner, descriptor) ?? new JsonMessageValueReader(owner, descriptor);

    // The well-known types the proto3 JSON mapping gives a form other than an object of their fields (Empty and the
    // rest of google.protobuf are ordinary objects, as JsonParser reads them).
    private static bool HasOwnJsonForm(MessageDescriptor descriptor) =>
        descriptor.File == WrappersReflection.Descriptor || OwnForms.Contains(descriptor.FullName);

    private static readonly HashSet<string> OwnForms =
    [
        Timestamp.Descriptor.FullName, Duration.Descriptor.FullName, FieldMask.Descriptor.FullName, Struct.Descriptor.FullName,
        Value.Descriptor.FullName, ListValue.Descriptor.FullName, Any.Descriptor.FullName,
    ];

    private static JsonValueReader? OwnFormReader(JsonMessageReader owner, MessageDescriptor descriptor) =>
        !OwnForms.Contains(descriptor.FullName) ? null
        : descriptor.FullName == Timestamp.Descriptor.FullName ? new JsonTimestampReader(owner)
        : descriptor.FullName == Duration.Descriptor.FullName ? new JsonDurationReader(owner)
        : descriptor.FullName == FieldMask.Descriptor.FullName ? new JsonFieldMaskReader(owner)
        : descriptor.FullName == Struct.Descriptor.FullName ? new JsonStructReader(owner, JsonStructReader.Kind.Struct)
        : descriptor.FullName == Value.Descriptor.FullName ? new JsonStructReader(owner, JsonStructReader.Kind.Value)
        : descriptor.FullName == ListValue.Descriptor.FullName ? new JsonStructReader(owner, JsonStructReader.Kind.ListValue)
        : new JsonAnyReader(owner);
}
