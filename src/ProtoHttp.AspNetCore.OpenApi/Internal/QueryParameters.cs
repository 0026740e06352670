using Google.Protobuf.Reflection;
using Microsoft.OpenApi;

namespace ProtoHttp.AspNetCore.OpenApi.Internal;

/// <summary>
/// The query parameters a GET binds into the request message (docs/protocol.md section 4): each scalar field by its proto
/// name, fields of singular nested messages by dotted path (<c>filter.min_price</c>), repeated scalars as repeated
/// keys, maps as <c>labels[key]</c> (OpenAPI's <c>deepObject</c> style). Repeated message fields cannot be bound
/// and are left out, as is a message nested in itself beyond its first appearance on a path.
/// </summary>
internal sealed class QueryParameters(MessageSchemas schemas, ProtoComments comments)
{
    public List<IOpenApiParameter> For(MessageDescriptor request)
    {
        var parameters = new List<IOpenApiParameter>();
        Add(parameters, request, prefix: "", onPath: [request.FullName]);
        return parameters;
    }

    private void Add(List<IOpenApiParameter> parameters, MessageDescriptor message, string prefix, HashSet<string> onPath)
    {
        foreach (var field in message.Fields.InFieldNumberOrder())
        {
            var name = prefix + field.Name;
            var description = comments.For(field.FullName);
            if (field.IsMap)
            {
                var value = field.MessageType.FindFieldByNumber(2);
                if (IsNestedMessage(value))
                {
                    continue;
                }

                parameters.Add(new OpenApiParameter
                {
                    Name = name,
                    In = ParameterLocation.Query,
                    Style = ParameterStyle.DeepObject,
                    Explode = true,
                    Description = Join(description, $"Entries as {name}[key]=value."),
                    Schema = new OpenApiSchema { Type = JsonSchemaType.Object, AdditionalProperties = Scalar(value) },
                });
            }
            else if (IsNestedMessage(field))
            {
                if (!field.IsRepeated && onPath.Add(field.MessageType.FullName))
                {
                    Add(parameters, field.MessageType, name + ".", onPath);
                    onPath.Remove(field.MessageType.FullName);
                }
            }
            else
            {
                parameters.Add(new OpenApiParameter
                {
                    Name = name,
                    In = ParameterLocation.Query,
                    // A nested message's required fields are required only once the message is there at all.
                    Required = field.IsRequired && prefix.Length == 0,
                    Description = description,
                    Schema = field.IsRepeated
                        ? new OpenApiSchema { Type = JsonSchemaType.Array, Items = Scalar(field) }
                        : Scalar(field),
                });
            }
        }
    }

    /// <summary>A message field bound through its own fields, as opposed to a well-known type written as one text.</summary>
    private static bool IsNestedMessage(FieldDescriptor field) =>
        field.FieldType is FieldType.Message or FieldType.Group && !WellKnownTextKinds.IsText(field.MessageType);

    /// <summary>
    /// The schema of one text value: as in JSON, except that 64-bit integers are plain decimal numbers and a
    /// Struct, Value or ListValue is its JSON text.
    /// </summary>
    private IOpenApiSchema Scalar(FieldDescriptor field) => field.FieldType switch
    {
        FieldType.Int64 or FieldType.SInt64 or FieldType.SFixed64 => new OpenApiSchema { Type = JsonSchemaType.Integer, Format = "int64" },
        FieldType.UInt64 or FieldType.Fixed64 => new OpenApiSchema { Type = JsonSchemaType.Integer, Format = "uint64", Minimum = "0" },
        FieldType.Message when field.MessageType.FullName is "google.protobuf.Struct" or "google.protobuf.Value" or "google.protobuf.ListValue" =>
            new OpenApiSchema { Type = JsonSchemaType.String, ContentMediaType = "application/json", Description = $"{field.MessageType.FullName} as JSON text." },
        _ => schemas.Value(field),
    };

    private static string? Join(string? first, string second) => first is null ? second : first + "\n\n" + second;
}
