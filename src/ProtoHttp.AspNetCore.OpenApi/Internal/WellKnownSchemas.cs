using Google.Protobuf.Reflection;
using Microsoft.OpenApi;

namespace ProtoHttp.AspNetCore.OpenApi.Internal;

/// <summary>
/// The JSON forms protobuf's canonical JSON mapping gives the well-known types, written in place where a field uses
/// them: a Timestamp is a date-time string, not an object with <c>seconds</c> and <c>nanos</c>.
/// </summary>
internal static class WellKnownSchemas
{
    /// <summary>The schema of a well-known type's JSON form, or null for a message mapped field by field.</summary>
    public static OpenApiSchema? For(MessageDescriptor message) => message.FullName switch
    {
        "google.protobuf.Timestamp" => new()
        {
            Type = JsonSchemaType.String,
            Format = "date-time",
            Description = "RFC 3339, always Z-normalized, with 0, 3, 6 or 9 fractional digits (google.protobuf.Timestamp).",
        },
        "google.protobuf.Duration" => new()
        {
            Type = JsonSchemaType.String,
            Pattern = @"^-?[0-9]+(\.[0-9]{1,9})?s$",
            Description = "Seconds with up to 9 fractional digits and the suffix s, e.g. 1.5s (google.protobuf.Duration).",
        },
        "google.protobuf.FieldMask" => new()
        {
            Type = JsonSchemaType.String,
            Description = "Field paths in lowerCamelCase, separated by commas, e.g. user.displayName,photo (google.protobuf.FieldMask).",
        },
        "google.protobuf.Struct" => new() { Type = JsonSchemaType.Object, Description = "Any JSON object (google.protobuf.Struct)." },
        "google.protobuf.Value" => new() { Description = "Any JSON value (google.protobuf.Value)." },
        "google.protobuf.ListValue" => new()
        {
            Type = JsonSchemaType.Array,
            Items = new OpenApiSchema(),
            Description = "Any JSON array (google.protobuf.ListValue).",
        },
        "google.protobuf.Empty" => new() { Type = JsonSchemaType.Object, MaxProperties = 0, Description = "The empty message (google.protobuf.Empty)." },
        "google.protobuf.Any" => new()
        {
            Type = JsonSchemaType.Object,
            Properties = new Dictionary<string, IOpenApiSchema>
            {
                ["@type"] = new OpenApiSchema { Type = JsonSchemaType.String, Description = "type.googleapis.com/ followed by the packed message's full name." },
            },
            Description = "A message of the type @type names, its fields beside @type; a well-known type's JSON form under \"value\" (google.protobuf.Any).",
        },
        "google.protobuf.DoubleValue" => Wrapper(JsonSchemaType.Number, "double", message),
        "google.protobuf.FloatValue" => Wrapper(JsonSchemaType.Number, "float", message),
        "google.protobuf.Int64Value" => Wrapper(JsonSchemaType.String, "int64", message),
        "google.protobuf.UInt64Value" => Wrapper(JsonSchemaType.String, "uint64", message),
        "google.protobuf.Int32Value" => Wrapper(JsonSchemaType.Integer, "int32", message),
        "google.protobuf.UInt32Value" => Wrapper(JsonSchemaType.Integer, "uint32", message),
        "google.protobuf.BoolValue" => Wrapper(JsonSchemaType.Boolean, null, message),
        "google.protobuf.StringValue" => Wrapper(JsonSchemaType.String, null, message),
        "google.protobuf.BytesValue" => Wrapper(JsonSchemaType.String, "byte", message),
        _ => null,
    };

    // A wrapper is its scalar, or null when unset: the reason to use one instead of the scalar itself.
    private static OpenApiSchema Wrapper(JsonSchemaType type, string? format, MessageDescriptor message) => new()
    {
        Type = type | JsonSchemaType.Null,
        Format = format,
        Description = $"The wrapped value, or null ({message.FullName}).",
    };
}
