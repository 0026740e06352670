using System.Text.Json.Nodes;
using Google.Protobuf.Reflection;
using Microsoft.OpenApi;

namespace ProtoHttp.AspNetCore.OpenApi.Internal;

/// <summary>
/// Schemas of messages and enums in protobuf's canonical JSON mapping, derived from their descriptors and added to the
/// document's components under their full names (<c>Northwind.Order</c>): lowerCamelCase JSON names, 64-bit integers
/// as strings, enums by name, bytes as base64, well-known types in their JSON forms, maps as objects, repeated fields
/// as arrays, each oneof as a <c>oneOf</c> that lets at most one member be present, proto2 required fields required.
/// </summary>
internal sealed class MessageSchemas(OpenApiDocument document, ProtoComments comments)
{
    private IDictionary<string, IOpenApiSchema> Components
    {
        get
        {
            document.Components ??= new OpenApiComponents();
            return document.Components.Schemas ??= new Dictionary<string, IOpenApiSchema>(StringComparer.Ordinal);
        }
    }

    /// <summary>A message's schema: a reference to its component, or a well-known type's JSON form in place.</summary>
    public IOpenApiSchema Message(MessageDescriptor message)
    {
        if (WellKnownSchemas.For(message) is { } wellKnown)
        {
            return wellKnown;
        }

        if (!Components.ContainsKey(message.FullName))
        {
            // Registered before its fields, so a message that contains itself refers to the component being built.
            var schema = new OpenApiSchema { Type = JsonSchemaType.Object, Description = comments.For(message.FullName) };
            Components[message.FullName] = schema;
            Describe(message, schema);
        }

        return new OpenApiSchemaReference(message.FullName, document);
    }

    /// <summary>The schema of one value of a field: its element for repeated fields, its value for maps.</summary>
    public IOpenApiSchema Value(FieldDescriptor field) => field.FieldType switch
    {
        FieldType.Double => new OpenApiSchema { Type = JsonSchemaType.Number, Format = "double" },
        FieldType.Float => new OpenApiSchema { Type = JsonSchemaType.Number, Format = "float" },
        FieldType.Int64 or FieldType.SInt64 or FieldType.SFixed64 => new OpenApiSchema { Type = JsonSchemaType.String, Format = "int64" },
        FieldType.UInt64 or FieldType.Fixed64 => new OpenApiSchema { Type = JsonSchemaType.String, Format = "uint64" },
        FieldType.Int32 or FieldType.SInt32 or FieldType.SFixed32 => new OpenApiSchema { Type = JsonSchemaType.Integer, Format = "int32" },
        FieldType.UInt32 or FieldType.Fixed32 => new OpenApiSchema { Type = JsonSchemaType.Integer, Format = "uint32", Minimum = "0", Maximum = "4294967295" },
        FieldType.Bool => new OpenApiSchema { Type = JsonSchemaType.Boolean },
        FieldType.String => new OpenApiSchema { Type = JsonSchemaType.String },
        FieldType.Bytes => new OpenApiSchema { Type = JsonSchemaType.String, Format = "byte", ContentEncoding = "base64" },
        FieldType.Enum => Enum(field.EnumType),
        FieldType.Message or FieldType.Group => Message(field.MessageType),
        _ => throw new InvalidOperationException($"{field.FullName} has field type {field.FieldType}, which has no JSON mapping here."),
    };

    /// <summary>An enum's schema: a reference to its component, which lists its value names.</summary>
    public IOpenApiSchema Enum(EnumDescriptor descriptor)
    {
        // NullValue is the JSON null itself, as a google.protobuf.Value holds it.
        if (descriptor.FullName == "google.protobuf.NullValue")
        {
            return new OpenApiSchema { Type = JsonSchemaType.Null };
        }

        if (!Components.ContainsKey(descriptor.FullName))
        {
            Components[descriptor.FullName] = new OpenApiSchema
            {
                Type = JsonSchemaType.String,
                Enum = [.. descriptor.Values.Select(value => (JsonNode)JsonValue.Create(value.Name))],
                Description = comments.For(descriptor.FullName),
            };
        }

        return new OpenApiSchemaReference(descriptor.FullName, document);
    }

    private void Describe(MessageDescriptor message, OpenApiSchema schema)
    {
        schema.Properties = new Dictionary<string, IOpenApiSchema>(StringComparer.Ordinal);
        foreach (var field in message.Fields.InFieldNumberOrder())
        {
            schema.Properties[field.JsonName] = WithDescription(Field(field), comments.For(field.FullName));
            if (field.IsRequired)
            {
                (schema.Required ??= new HashSet<string>(StringComparer.Ordinal)).Add(field.JsonName);
            }
        }

        var oneofs = message.Oneofs.Where(oneof => !oneof.IsSynthetic).Select(AtMostOneOf).ToList();
        if (oneofs.Count == 1)
        {
            schema.OneOf = oneofs[0];
        }
        else if (oneofs.Count > 1)
        {
            schema.AllOf = [.. oneofs.Select(alternatives => (IOpenApiSchema)new OpenApiSchema { OneOf = alternatives })];
        }
    }

    private IOpenApiSchema Field(FieldDescriptor field)
    {
        if (field.IsMap)
        {
            var entry = field.MessageType;
            return new OpenApiSchema { Type = JsonSchemaType.Object, AdditionalProperties = Value(entry.FindFieldByNumber(2)) };
        }

        return field.IsRepeated
            ? new OpenApiSchema { Type = JsonSchemaType.Array, Items = Value(field) }
            : Value(field);
    }

    /// <summary>
    /// A oneof as alternatives of which exactly one holds: one member present, or none. An object with two members
    /// present matches two alternatives and so fails, as protobuf's JSON parser refuses it.
    /// </summary>
    private static List<IOpenApiSchema> AtMostOneOf(OneofDescriptor oneof)
    {
        var members = oneof.Fields.Select(field => (IOpenApiSchema)new OpenApiSchema { Required = new HashSet<string> { field.JsonName } }).ToList();
        return [.. members, new OpenApiSchema { Not = new OpenApiSchema { AnyOf = [.. members] } }];
    }

    private IOpenApiSchema WithDescription(IOpenApiSchema schema, string? description)
    {
        if (description is null)
        {
            return schema;
        }

        switch (schema)
        {
            case OpenApiSchemaReference reference:
                // A description beside $ref is allowed in OpenAPI 3.1 and describes this use of the component.
                return new OpenApiSchemaReference(reference.Reference.Id!, document) { Description = description };
            case OpenApiSchema inline:
                inline.Description = inline.Description is null ? description : description + "\n\n" + inline.Description;
                return inline;
            default:
                return schema;
        }
    }
}
