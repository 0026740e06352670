using System.Text.Json;

namespace ProtoHttp.FunctionalTests.OpenApi;

/// <summary>Assertions on one JSON schema of an OpenAPI document.</summary>
public static class SchemaAssert
{
    /// <summary>The schema's type is <paramref name="type"/> (with <c>null</c> too where <paramref name="nullable"/>) and its format <paramref name="format"/>.</summary>
    public static void Is(JsonElement schema, string type, string? format = null, bool nullable = false)
    {
        string[] expected = nullable ? [type, "null"] : [type];
        var actual = schema.GetProperty("type") is { ValueKind: JsonValueKind.Array } types
            ? types.EnumerateArray().Select(t => t.GetString()!).ToArray()
            : [schema.GetProperty("type").GetString()!];
        Assert.Equal(expected.Order(), actual.Order());
        Assert.Equal(format, schema.TryGetProperty("format", out var f) ? f.GetString() : null);
    }

    /// <summary>The schema is a reference to the component <paramref name="id"/>.</summary>
    public static void RefersTo(JsonElement schema, string id) => Assert.Equal(id, OpenApiDocument.ReferenceId(schema));

    /// <summary>The schema is an array; returns the schema of its items.</summary>
    public static JsonElement ArrayItems(JsonElement schema)
    {
        Is(schema, "array");
        return schema.GetProperty("items");
    }

    /// <summary>The schema is a JSON object whose values (a protobuf map's) are described by the returned schema.</summary>
    public static JsonElement MapValues(JsonElement schema)
    {
        Is(schema, "object");
        return schema.GetProperty("additionalProperties");
    }
}
