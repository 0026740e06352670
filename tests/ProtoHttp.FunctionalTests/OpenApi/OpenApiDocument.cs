using System.Net;
using System.Text.Json;

namespace ProtoHttp.FunctionalTests.OpenApi;

/// <summary>A server's OpenAPI document as JSON, fetched over HTTP, with the lookups the tests need.</summary>
public sealed class OpenApiDocument(JsonElement root)
{
    public JsonElement Root { get; } = root;

    public static async Task<OpenApiDocument> GetAsync(HttpClient client, string path = "/openapi/v1.json")
    {
        using var response = await client.GetAsync(path);
        Assert.Equal(HttpStatusCode.OK, response.StatusCode);
        Assert.Equal("application/json", response.Content.Headers.ContentType?.MediaType);
        using var json = JsonDocument.Parse(await response.Content.ReadAsStringAsync());
        return new OpenApiDocument(json.RootElement.Clone());
    }

    public JsonElement Paths => Root.GetProperty("paths");

    public JsonElement Operation(string path, string verb) => Paths.GetProperty(path).GetProperty(verb);

    /// <summary>The component schema named <paramref name="id"/>, failing the test when there is none.</summary>
    public JsonElement Schema(string id)
    {
        Assert.True(Root.GetProperty("components").GetProperty("schemas").TryGetProperty(id, out var schema), $"components.schemas has no {id}");
        return schema;
    }

    /// <summary>The property <paramref name="name"/> of a component schema.</summary>
    public JsonElement Property(string id, string name)
    {
        Assert.True(Schema(id).GetProperty("properties").TryGetProperty(name, out var property), $"{id} has no property {name}");
        return property;
    }

    /// <summary>The component a <c>$ref</c> schema names.</summary>
    public static string ReferenceId(JsonElement schema) =>
        schema.GetProperty("$ref").GetString()!.Replace("#/components/schemas/", "", StringComparison.Ordinal);

    /// <summary>What a <c>$ref</c> names, or the schema itself when it is not a reference.</summary>
    public JsonElement Resolve(JsonElement schema) =>
        schema.ValueKind == JsonValueKind.Object && schema.TryGetProperty("$ref", out _) ? Schema(ReferenceId(schema)) : schema;
}
