using System.Reflection;
using Google.Protobuf;
using Google.Protobuf.Reflection;
using Google.Protobuf.WellKnownTypes;
using Type = System.Type;

namespace ProtoHttp.Json;

/// <summary>Builds a <see cref="JsonReadPlan"/>'s field readers from the descriptor and the generated C# properties.</summary>
internal static class JsonReadPlanBuilder
{
    /// <summary>The field readers, or null when JsonParser must read the whole message.</summary>
    public static JsonFieldReader[]? Build(JsonMessageReader owner, MessageDescriptor descriptor)
    {
        // The plan tracks oneofs in one 64-bit mask.
        if (descriptor.ClrType is null || descriptor.Oneofs.Count > 64 || JsonMessageReader.IsWellKnown(descriptor))
        {
            return null;
        }

        var fields = new List<JsonFieldReader>();
        foreach (var field in descriptor.Fields.InDeclarationOrder())
        {
            var property = GeneratedAccessors.Property(descriptor.ClrType, field);
            var reader = property is null ? null : BuildField(owner, descriptor.ClrType, field, property);
            if (reader is null)
            {
                return null;
            }

            fields.Add(reader);
        }

        foreach (var extension in owner.Extensions.For(descriptor))
        {
            if (ExtensionReader(owner, extension) is { } reader)
            {
                fields.Add(reader);
            }
        }

        return [.. fields];
    }

    // Singular extensions only: a repeated one stays an unknown name (400, or skipped when unknown fields are ignored).
    private static JsonFieldReader? ExtensionReader(JsonMessageReader owner, FieldDescriptor extension)
    {
        if (extension.IsRepeated)
        {
            return null;
        }

        var type = extension.Extension.GetType().GetGenericArguments()[1];
        var value = ValueReader(owner, extension, type);
        return value is null ? null : GeneratedAccessors.Create<JsonFieldReader>(typeof(JsonExtensionFieldReader<>), [type], extension, value);
    }

    private static JsonFieldReader? BuildField(JsonMessageReader owner, Type messageType, FieldDescriptor field, PropertyInfo property)
    {
        var type = property.PropertyType;
        if (field.IsMap)
        {
            if (!GeneratedAccessors.IsMapField(type) || property.GetMethod is not { } getMap)
            {
                return null;
            }

            var args = type.GetGenericArguments();
            var keys = KeyReader(field.MessageType.FindFieldByNumber(1), args[0]);
            var values = ValueReader(owner, field.MessageType.FindFieldByNumber(2), args[1]);
            return keys is null || values is null ? null
                : GeneratedAccessors.Create<JsonFieldReader>(typeof(JsonMapFieldReader<,,>), [messageType, args[0], args[1]], field, GeneratedAccessors.Getter(messageType, getMap), keys, values);
        }

        if (field.IsRepeated)
        {
            if (!GeneratedAccessors.IsRepeatedField(type) || property.GetMethod is not { } getList)
            {
                return null;
            }

            var element = type.GetGenericArguments()[0];
            var elements = ValueReader(owner, field, element);
            return elements is null ? null
                : GeneratedAccessors.Create<JsonFieldReader>(typeof(JsonRepeatedFieldReader<,>), [messageType, element], field, GeneratedAccessors.Getter(messageType, getList), elements);
        }

        var value = ValueReader(owner, field, type);
        if (value is null || property.SetMethod is not { IsPublic: true } set)
        {
            return null;
        }

        return GeneratedAccessors.Create<JsonFieldReader>(typeof(JsonSingularFieldReader<,>), [messageType, type], field, GeneratedAccessors.Setter(messageType, set), value);
    }

    // Map keys are JSON names: strings, integers and bools only, as JsonParser allows.
    private static object? KeyReader(FieldDescriptor field, Type type) => field.FieldType switch
    {
        FieldType.String or FieldType.Bool or FieldType.Int32 or FieldType.SInt32 or FieldType.SFixed32 or FieldType.UInt32 or FieldType.Fixed32
            or FieldType.Int64 or FieldType.SInt64 or FieldType.SFixed64 or FieldType.UInt64 or FieldType.Fixed64 => ValueReader(owner: null, field, type),
        _ => null,
    };

    // A reader whose T is exactly the generated property's (element) type, or null when the native reader has none.
    private static object? ValueReader(JsonMessageReader? owner, FieldDescriptor field, Type type)
    {
        object? reader = field.FieldType switch
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
            FieldType.Enum when owner is not null && type.IsEnum && System.Enum.GetUnderlyingType(type) == typeof(int) =>
                Activator.CreateInstance(typeof(JsonEnumReader<>).MakeGenericType(type), owner, field.EnumType),
            FieldType.Message or FieldType.Group when owner is not null => MessageReader(owner, field.MessageType, type),
            _ => null,
        };
        return reader is not null && typeof(JsonValueReader<>).MakeGenericType(type).IsInstanceOfType(reader) ? reader : null;
    }

    private static object? MessageReader(JsonMessageReader owner, MessageDescriptor descriptor, Type type)
    {
        if (descriptor.File == WrappersReflection.Descriptor)
        {
            // C# exposes numeric and bool wrappers as nullable scalars, string and bytes wrappers as the plain types.
            var inner = Nullable.GetUnderlyingType(type);
            var scalar = ValueReader(owner, descriptor.FindFieldByNumber(1), inner ?? type);
            return inner is null || scalar is null ? scalar : Activator.CreateInstance(typeof(JsonWrapperReader<>).MakeGenericType(inner), scalar);
        }

        if (!typeof(IMessage).IsAssignableFrom(type) || !type.IsClass)
        {
            return null;
        }

        if (type == typeof(Timestamp))
        {
            return new JsonTimestampReader(owner);
        }

        if (JsonMessageReader.IsWellKnown(descriptor))
        {
            return Activator.CreateInstance(typeof(JsonDelegatedValueReader<>).MakeGenericType(type), owner, descriptor);
        }

        return type.GetConstructor(Type.EmptyTypes) is null ? null
            : Activator.CreateInstance(typeof(JsonMessageValueReader<>).MakeGenericType(type), owner, descriptor);
    }
}
