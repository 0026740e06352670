using System.Net;
using System.Net.Http.Headers;
using System.Text.Json;
using Google.Protobuf;
using Google.Protobuf.WellKnownTypes;
using Microsoft.AspNetCore.Builder;
using ProtoHttp.FunctionalTests.Hardening;
using ProtoHttp.FunctionalTests.Infrastructure;

namespace ProtoHttp.FunctionalTests.OpenApi;

/// <summary>
/// The schema of hardening.proto's <c>Specimen</c>, which has every kind of field, against protobuf's canonical JSON
/// mapping: field by field, and against a real JSON answer holding a value in every field.
/// </summary>
public sealed class SpecimenSchemaTests : IAsyncLifetime
{
    private const string Specimen = "protohttp.hardening.Specimen";

    private SampleServer? _server;
    private OpenApiDocument? _document;

    private SampleServer Server => _server!;

    private OpenApiDocument Document => _document!;

    public async Task InitializeAsync()
    {
        _server = await SampleServer.StartAsync(map: app => app.MapProtoService<SpecimenService>());
        _document = await OpenApiDocument.GetAsync(_server.Client);
    }

    public async Task DisposeAsync() => await _server!.DisposeAsync();

    [Theory]
    [InlineData("i32", "integer", "int32")]
    [InlineData("s32", "integer", "int32")]
    [InlineData("sf32", "integer", "int32")]
    [InlineData("u32", "integer", "uint32")]
    [InlineData("f32", "integer", "uint32")]
    [InlineData("i64", "string", "int64")]
    [InlineData("s64", "string", "int64")]
    [InlineData("sf64", "string", "int64")]
    [InlineData("u64", "string", "uint64")]
    [InlineData("f64", "string", "uint64")]
    [InlineData("flt", "number", "float")]
    [InlineData("dbl", "number", "double")]
    [InlineData("flag", "boolean", null)]
    [InlineData("text", "string", null)]
    [InlineData("data", "string", "byte")]
    [InlineData("at", "string", "date-time")]
    [InlineData("took", "string", null)]
    [InlineData("mask", "string", null)]
    [InlineData("extra", "object", null)]
    [InlineData("any", "object", null)]
    [InlineData("name", "string", null)]
    [InlineData("code", "integer", "int32")]
    public void ScalarsAndWellKnownTypesHaveTheirJsonForms(string field, string type, string? format) =>
        SchemaAssert.Is(Document.Property(Specimen, field), type, format);

    [Theory]
    [InlineData("maybe", "integer", "int32")]
    [InlineData("label", "string", null)]
    public void WrappersAreTheirScalarOrNull(string field, string type, string? format) =>
        SchemaAssert.Is(Document.Property(Specimen, field), type, format, nullable: true);

    [Fact]
    public void EnumsAreTheirValueNames()
    {
        SchemaAssert.RefersTo(Document.Property(Specimen, "color"), "protohttp.hardening.Color");
        var color = Document.Schema("protohttp.hardening.Color");
        SchemaAssert.Is(color, "string");
        Assert.Equal(["COLOR_UNSPECIFIED", "RED", "GREEN"], color.GetProperty("enum").EnumerateArray().Select(v => v.GetString()));
        SchemaAssert.RefersTo(SchemaAssert.ArrayItems(Document.Property(Specimen, "colors")), "protohttp.hardening.Color");
    }

    [Fact]
    public void NestedRepeatedAndMapFieldsAreReferencesArraysAndObjects()
    {
        SchemaAssert.RefersTo(Document.Property(Specimen, "child"), Specimen);
        SchemaAssert.RefersTo(SchemaAssert.ArrayItems(Document.Property(Specimen, "children")), Specimen);
        SchemaAssert.Is(SchemaAssert.ArrayItems(Document.Property(Specimen, "tags")), "string");
        SchemaAssert.Is(SchemaAssert.ArrayItems(Document.Property(Specimen, "numbers")), "integer", "int32");
        SchemaAssert.Is(SchemaAssert.MapValues(Document.Property(Specimen, "counts")), "string", "int64");
        SchemaAssert.RefersTo(SchemaAssert.MapValues(Document.Property(Specimen, "byId")), Specimen);
    }

    [Fact]
    public void TheOneofLetsAtMostOneMemberBePresent()
    {
        var alternatives = Document.Schema(Specimen).GetProperty("oneOf").EnumerateArray().ToList();

        Assert.Equal(3, alternatives.Count);
        Assert.Equal("name", alternatives[0].GetProperty("required")[0].GetString());
        Assert.Equal("code", alternatives[1].GetProperty("required")[0].GetString());
        Assert.Equal(2, alternatives[2].GetProperty("not").GetProperty("anyOf").GetArrayLength()); // Or neither.
    }

    [Fact]
    public void TheFieldCommentIsTheDescription() =>
        Assert.Equal("Recursive, so nesting depth can be pushed past every limit.", Document.Property(Specimen, "child").GetProperty("description").GetString());

    [Fact]
    public async Task AnAnswerWithEveryFieldSetMatchesTheSchema()
    {
        var request = new HttpRequestMessage(HttpMethod.Post, "/hardening.proto/Echo") { Content = new ByteArrayContent(EveryKind().ToByteArray()) };
        request.Content.Headers.ContentType = new MediaTypeHeaderValue("application/x-protobuf");
        request.Headers.Accept.ParseAdd("application/json");

        using var response = await Server.Client.SendAsync(request);

        Assert.Equal(HttpStatusCode.OK, response.StatusCode);
        using var answer = JsonDocument.Parse(await response.Content.ReadAsStringAsync());
        var properties = Document.Schema(Specimen).GetProperty("properties").EnumerateObject().Select(p => p.Name);
        Assert.Equal(properties.Where(p => p != "code").Order(), answer.RootElement.EnumerateObject().Select(m => m.Name).Order()); // Every field is there but one oneof member.
        JsonShape.Check(Document, Document.Root.GetProperty("paths").GetProperty("/hardening.proto/Echo").GetProperty("post")
            .GetProperty("responses").GetProperty("200").GetProperty("content").GetProperty("application/json").GetProperty("schema"), answer.RootElement);
    }

    [Fact]
    public async Task TheQueryParametersAreTheNamesAGetBinds()
    {
        var parameters = Document.Operation("/hardening.proto/Echo", "get").GetProperty("parameters").EnumerateArray()
            .Where(p => p.GetProperty("in").GetString() == "query")
            .ToDictionary(p => p.GetProperty("name").GetString()!);

        // Proto names; repeated messages, maps of messages and the message nested in itself cannot be bound.
        Assert.DoesNotContain("children", parameters.Keys);
        Assert.DoesNotContain("by_id", parameters.Keys);
        Assert.DoesNotContain(parameters.Keys, name => name.StartsWith("child.", StringComparison.Ordinal));
        SchemaAssert.Is(parameters["i64"].GetProperty("schema"), "integer", "int64");
        SchemaAssert.Is(parameters["at"].GetProperty("schema"), "string", "date-time");
        SchemaAssert.Is(SchemaAssert.ArrayItems(parameters["tags"].GetProperty("schema")), "string");
        Assert.Equal("deepObject", parameters["counts"].GetProperty("style").GetString());
        Assert.Contains("any.type_url", parameters.Keys);

        using var response = await Server.Client.GetAsync("/hardening.proto/Echo?i64=5&tags=a&tags=b&counts[k]=3&at=2024-01-02T03:04:05Z&color=RED");
        using var answer = JsonDocument.Parse(await response.Content.ReadAsStringAsync());
        Assert.Equal("""{"i64":"5","color":"RED","tags":["a","b"],"counts":{"k":"3"},"at":"2024-01-02T03:04:05Z"}""", JsonSerializer.Serialize(answer.RootElement));
    }

    private static Specimen EveryKind() => new()
    {
        I32 = -7, I64 = -9_000_000_000, U32 = 7, U64 = 9_000_000_000, S32 = -5, S64 = -6, F32 = 8, F64 = 9, Sf32 = -10, Sf64 = -11,
        Flt = 1.5f, Dbl = 2.5, Flag = true, Text = "text", Data = ByteString.CopyFrom(1, 2, 255), Color = Color.Green,
        Child = new Specimen { I64 = 1 },
        Children = { new Specimen { Text = "c" } },
        Tags = { "a", "b" },
        Numbers = { 1, 2 },
        Counts = { ["k"] = 3 },
        ById = { [4] = new Specimen { Flag = true } },
        Name = "n",
        At = Timestamp.FromDateTime(new DateTime(2024, 1, 2, 3, 4, 5, DateTimeKind.Utc)),
        Took = Duration.FromTimeSpan(TimeSpan.FromSeconds(1.5)),
        Maybe = 3,
        Label = "l",
        Mask = FieldMask.FromString("i32,text"),
        Extra = Struct.Parser.ParseJson("""{"a": [1, "x", null, {"b": true}]}"""),
        Any = Any.Pack(new Timestamp()),
        Colors = { Color.Red, Color.Green },
    };
}
