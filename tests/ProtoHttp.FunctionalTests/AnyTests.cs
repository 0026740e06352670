using System.Net;
using System.Net.Http.Headers;
using System.Text;
using Google.Protobuf;
using Google.Protobuf.Reflection;
using Google.Protobuf.WellKnownTypes;
using ProtoHttp.FunctionalTests.Infrastructure;
using ProtoHttp.FunctionalTests.Protos.AnyEcho;
using ProtoService;

namespace ProtoHttp.FunctionalTests;

/// <summary><c>google.protobuf.Any</c> over HTTP in every format (issue 9 item 3), through a service that echoes it.</summary>
public sealed class AnyTests(EchoServerFixture fixture) : IClassFixture<EchoServerFixture>
{
    private const string Echo = "/any_echo.proto/Echo";

    private readonly SampleServer _server = fixture.Server;

    [Fact]
    public async Task AParcelOfAnysRoundTripsProtobufToJsonToXmlToProtobufByteForByte()
    {
        var parcel = new Parcel
        {
            Label = "every kind",
            Payload = Any.Pack(new Item { Name = "widget", Count = 3 }),
            Attachments =
            {
                Any.Pack(new Timestamp { Seconds = 1_700_000_000, Nanos = 5_000_000 }),
                Any.Pack(Struct.Parser.ParseJson("{\"a\": [1, \"two\", null, {\"b\": true}]}")),
                Any.Pack(Any.Pack(new Item { Name = "inner" })),
            },
            ByName = { ["wrapped"] = Any.Pack(Any.Pack(Any.Pack(new Int32Value { Value = 7 }))) },
        };
        var original = parcel.ToByteArray();

        var json = await PostAsync(Echo, original, "application/x-protobuf", "application/json");
        Assert.Contains("\"@type\": \"type.googleapis.com/protohttp.tests.any.Item\", \"name\": \"widget\"", Encoding.UTF8.GetString(json), StringComparison.Ordinal);
        Assert.Contains("\"@type\": \"type.googleapis.com/google.protobuf.Timestamp\", \"value\": \"2023-11-14T22:13:20.005Z\"", Encoding.UTF8.GetString(json), StringComparison.Ordinal);
        var xml = await PostAsync(Echo, json, "application/json", "application/xml");
        var back = await PostAsync(Echo, xml, "application/xml", "application/x-protobuf");

        Assert.Equal(original, back);
        Assert.Empty(await _server.Logs.ErrorsOnceEndedAsync());
    }

    [Fact]
    public async Task AJsonAnyWritesAsJsonFormatterWithTheSameTypesWrites()
    {
        var parcel = new Parcel { Payload = Any.Pack(Any.Pack(new Duration { Seconds = 90 })), Attachments = { Any.Pack(new Empty()) } };
        var formatter = new JsonFormatter(JsonFormatter.Settings.Default.WithTypeRegistry(TypeRegistry.FromFiles(AnyEchoReflection.Descriptor, DurationReflection.Descriptor, EmptyReflection.Descriptor)));

        var json = await PostAsync(Echo, parcel.ToByteArray(), "application/x-protobuf", "application/json");

        Assert.Equal(formatter.Format(parcel), Encoding.UTF8.GetString(json));
    }

    [Theory]
    [InlineData("application/json", "{\"payload\": {\"@type\": \"type.googleapis.com/ProtoService.SearchRequest\", \"query\": \"chai\"}}")]
    [InlineData("application/json", "{\"payload\": {\"@type\": \"type.googleapis.com/no.Such\"}}")]
    public async Task AJsonAnyOfATypeTheServiceDoesNotKnowIs400NamingIt(string contentType, string body)
    {
        using var response = await _server.Client.SendAsync(new HttpRequestMessage(HttpMethod.Post, Echo) { Content = Content(Encoding.UTF8.GetBytes(body), contentType) });

        Assert.Equal(HttpStatusCode.BadRequest, response.StatusCode);
        var error = await Wire.ReadErrorAsync(response);
        Assert.Equal("INVALID_ARGUMENT", error.Code);
        Assert.Contains(body.Contains("no.Such", StringComparison.Ordinal) ? "no.Such" : "ProtoService.SearchRequest", error.ErrorText, StringComparison.Ordinal);
        Assert.Empty(await _server.Logs.ErrorsOnceEndedAsync());
    }

    [Fact]
    public async Task AnAnswerHoldingAnAnyOfAnUnknownTypeIs406InJsonAndCarriedByProtobufAndXml()
    {
        var parcel = new Parcel { Payload = Any.Pack(new SearchRequest { Query = "chai" }) };

        using var json = await _server.Client.SendAsync(Wire.Post(Echo, parcel, "application/x-protobuf", "application/json"));
        Assert.Equal(HttpStatusCode.NotAcceptable, json.StatusCode);
        Assert.Contains("ProtoService.SearchRequest", (await Wire.ReadErrorAsync(json)).ErrorText, StringComparison.Ordinal);

        var xml = await PostAsync(Echo, parcel.ToByteArray(), "application/x-protobuf", "application/xml");
        Assert.Equal(parcel.ToByteArray(), await PostAsync(Echo, xml, "application/xml", "application/x-protobuf"));
        Assert.Empty(await _server.Logs.ErrorsOnceEndedAsync());
    }

    [Fact]
    public async Task TheAnyTypesOptionAddsTypesFromOtherFiles()
    {
        const string body = "{\"payload\": {\"@type\": \"type.googleapis.com/ProtoService.SearchRequest\", \"query\": \"chai\", \"pageNumber\": 2}}";
        var path = EchoServerFixture.SampleTypesPrefix + "/Echo";

        var bytes = await PostAsync(path, Encoding.UTF8.GetBytes(body), "application/json", "application/x-protobuf");
        var json = await PostAsync(path, bytes, "application/x-protobuf", "application/json");

        Assert.Equal(new SearchRequest { Query = "chai", PageNumber = 2 }, Parcel.Parser.ParseFrom(bytes).Payload.Unpack<SearchRequest>());
        Assert.Equal(body.Replace("{\"payload\": {", "{ \"payload\": { ", StringComparison.Ordinal).Replace("}}", " } }", StringComparison.Ordinal), Encoding.UTF8.GetString(json));
    }

    [Theory]
    [InlineData(150)]
    [InlineData(3_000)]
    public async Task AnysNestedPastTheDepthLimitAre406InJsonNotACrash(int depth)
    {
        var any = Any.Pack(new Item { Name = "bottom" });
        for (var i = 1; i < depth; i++)
        {
            any = new Any { TypeUrl = "type.googleapis.com/google.protobuf.Any", Value = any.ToByteString() };
        }

        using var response = await _server.Client.SendAsync(Wire.Post(Echo, new Parcel { Payload = any }, "application/x-protobuf", "application/json"));

        Assert.Equal(HttpStatusCode.NotAcceptable, response.StatusCode);
        Assert.Contains("deeper than 100", (await Wire.ReadErrorAsync(response)).ErrorText, StringComparison.Ordinal);
        Assert.Empty(await _server.Logs.ErrorsOnceEndedAsync());
    }

    [Fact]
    public async Task JsonAnysNestedPastTheDepthLimitAre400()
    {
        var body = new StringBuilder("{\"payload\": ");
        for (var i = 0; i < 150; i++)
        {
            body.Append("{\"@type\": \"type.googleapis.com/google.protobuf.Any\", \"value\": ");
        }

        body.Append("{\"@type\": \"type.googleapis.com/protohttp.tests.any.Item\"}").Append('}', 151);

        using var response = await _server.Client.SendAsync(new HttpRequestMessage(HttpMethod.Post, Echo) { Content = Content(Encoding.UTF8.GetBytes(body.ToString()), "application/json") });

        Assert.Equal(HttpStatusCode.BadRequest, response.StatusCode);
        Assert.Empty(await _server.Logs.ErrorsOnceEndedAsync());
    }

    [Fact]
    public async Task AFormBindsAnAnyAsItsTwoFields()
    {
        var packed = Any.Pack(new Item { Name = "widget" });
        var form = $"payload.type_url={Uri.EscapeDataString(packed.TypeUrl)}&payload.value={Uri.EscapeDataString(packed.Value.ToBase64())}";

        var bytes = await PostAsync(Echo, Encoding.UTF8.GetBytes(form), "application/x-www-form-urlencoded", "application/x-protobuf");

        Assert.Equal(new Parcel { Payload = packed }, Parcel.Parser.ParseFrom(bytes));
    }

    private async Task<byte[]> PostAsync(string path, byte[] body, string contentType, string accept)
    {
        using var request = new HttpRequestMessage(HttpMethod.Post, path) { Content = Content(body, contentType) };
        request.Headers.Accept.ParseAdd(accept);
        using var response = await _server.Client.SendAsync(request);
        var answer = await response.Content.ReadAsByteArrayAsync();
        Assert.True(response.StatusCode == HttpStatusCode.OK, $"{contentType} -> {accept}: {(int)response.StatusCode} {Encoding.UTF8.GetString(answer)}");
        return answer;
    }

    private static ByteArrayContent Content(byte[] body, string contentType)
    {
        var content = new ByteArrayContent(body);
        content.Headers.ContentType = MediaTypeHeaderValue.Parse(contentType);
        return content;
    }
}
