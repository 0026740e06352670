using System.Globalization;
using System.Text.Json;

namespace ProtoHttp.FunctionalTests.OpenApi;

/// <summary>
/// Checks a real JSON answer against a schema of the document: every value of the type and format the schema names,
/// and every member of a message one the message's schema names. Enough of JSON Schema for the schemas ProtoHttp
/// writes (type, format, properties, items, additionalProperties, $ref), not a validator for any schema.
/// </summary>
public static class JsonShape
{
    public static void Check(OpenApiDocument document, JsonElement schema, JsonElement value, string path = "$")
    {
        var isMessage = schema.TryGetProperty("$ref", out _);
        schema = document.Resolve(schema);
        if (schema.TryGetProperty("type", out var type))
        {
            var allowed = type.ValueKind == JsonValueKind.Array ? type.EnumerateArray().Select(t => t.GetString()!).ToList() : [type.GetString()!];
            Assert.True(allowed.Contains(TypeOf(value)) || allowed.Contains("number") && TypeOf(value) == "integer",
                $"{path} is {TypeOf(value)} {value}, but the schema says {string.Join(" or ", allowed)}");
        }

        if (schema.TryGetProperty("format", out var format) && value.ValueKind == JsonValueKind.String)
        {
            CheckFormat(format.GetString()!, value.GetString()!, path);
        }

        if (schema.TryGetProperty("enum", out var names) && value.ValueKind == JsonValueKind.String)
        {
            Assert.Contains(value.GetString(), names.EnumerateArray().Select(n => n.GetString()));
        }

        switch (value.ValueKind)
        {
            case JsonValueKind.Object:
                foreach (var member in value.EnumerateObject())
                {
                    if (schema.TryGetProperty("properties", out var properties) && properties.TryGetProperty(member.Name, out var property))
                    {
                        Check(document, property, member.Value, $"{path}.{member.Name}");
                    }
                    else if (schema.TryGetProperty("additionalProperties", out var values) && values.ValueKind == JsonValueKind.Object)
                    {
                        Check(document, values, member.Value, $"{path}[{member.Name}]");
                    }
                    else
                    {
                        // Well-known types written in place (Struct, Any) are open; a message's schema names every field.
                        Assert.False(isMessage, $"{path} has the member {member.Name}, which its schema does not name");
                    }
                }

                break;
            case JsonValueKind.Array when schema.TryGetProperty("items", out var items):
                var index = 0;
                foreach (var item in value.EnumerateArray())
                {
                    Check(document, items, item, $"{path}[{index++}]");
                }

                break;
        }
    }

    private static string TypeOf(JsonElement value) => value.ValueKind switch
    {
        JsonValueKind.Object => "object",
        JsonValueKind.Array => "array",
        JsonValueKind.String => "string",
        JsonValueKind.Number => value.TryGetInt64(out _) ? "integer" : "number",
        JsonValueKind.True or JsonValueKind.False => "boolean",
        _ => "null",
    };

    private static void CheckFormat(string format, string text, string path)
    {
        var ok = format switch
        {
            "int64" => long.TryParse(text, NumberStyles.AllowLeadingSign, CultureInfo.InvariantCulture, out _),
            "uint64" => ulong.TryParse(text, NumberStyles.None, CultureInfo.InvariantCulture, out _),
            "date-time" => DateTimeOffset.TryParse(text, CultureInfo.InvariantCulture, DateTimeStyles.None, out _),
            "byte" => Convert.TryFromBase64String(text, new byte[text.Length], out _),
            _ => true,
        };
        Assert.True(ok, $"{path} is \"{text}\", which is not a {format} string");
    }
}
