using System.Text.Json;
using Microsoft.Extensions.DependencyInjection;
using Microsoft.Extensions.DependencyInjection.Extensions;
using ProtoHttp.AspNetCore.Pipeline;
using ProtoHttp.FunctionalTests.Infrastructure;

namespace ProtoHttp.FunctionalTests.OpenApi;

/// <summary>
/// The OpenAPI document describes each endpoint from its <c>ProtoHttpMethodMetadata</c> (kind, verbs, media types read
/// and written), with no list of protocols or media types of its own: a protocol added from this project, which the
/// OpenAPI package has never heard of, is described with its own media types; gRPC-Web's endpoints, which say they are
/// excluded from descriptions, are not; and a codec added from this project is in every operation that reads or writes it.
/// </summary>
public sealed class DescriptionsFollowMetadataTests : IAsyncLifetime
{
    private SampleServer _server = null!;

    public async Task InitializeAsync() => _server = await SampleServer.StartAsync(configure: builder =>
    {
        builder.Services.AddProtoHttp(o => o.Codecs.Add(new Base64ProtobufCodec()));
        builder.Services.TryAddEnumerable(ServiceDescriptor.Singleton<CallProtocol, DescribedOnlyProtocol>());
    });

    public async Task DisposeAsync() => await _server.DisposeAsync();

    [Fact]
    public async Task AnAddedProtocolsEndpointsAreDescribedWithTheirOwnVerbsAndMediaTypes()
    {
        var document = await OpenApiDocument.GetAsync(_server.Client);

        var path = document.Paths.GetProperty("/described/ProtoService.proto/Search");
        Assert.Equal(["post"], path.EnumerateObject().Select(operation => operation.Name));
        var post = path.GetProperty("post");
        Assert.Equal([DescribedOnlyProtocol.MediaType], ContentTypes(post.GetProperty("requestBody")));
        Assert.Equal([DescribedOnlyProtocol.MediaType], ContentTypes(post.GetProperty("responses").GetProperty("200")));
        Assert.Equal(
            "#/components/schemas/ProtoService.SearchRequest",
            post.GetProperty("requestBody").GetProperty("content").GetProperty(DescribedOnlyProtocol.MediaType).GetProperty("schema").GetProperty("$ref").GetString());
        // Only unary methods were mapped by it; the others have no path of its.
        Assert.False(document.Paths.TryGetProperty("/described/NorthwindStreams.proto/ReplayOrders", out _));
    }

    [Fact]
    public async Task GrpcWebsEndpointsAreLeftOutAsTheirMetadataSays()
    {
        var document = await OpenApiDocument.GetAsync(_server.Client);

        var types = document.Paths.EnumerateObject()
            .SelectMany(path => path.Value.EnumerateObject())
            .SelectMany(operation => (operation.Value.TryGetProperty("requestBody", out var body) ? ContentTypes(body) : [])
                .Concat(operation.Value.GetProperty("responses").EnumerateObject().SelectMany(response => ContentTypes(response.Value))))
            .ToHashSet();
        Assert.Contains("application/b64", types);
        Assert.DoesNotContain(types, type => type.StartsWith("application/grpc-web", StringComparison.Ordinal));
        // The Connect path that gRPC-Web shares is Connect's: its codecs, its error JSON.
        var connect = document.Operation("/ProtoService.SearchService/Search", "post");
        Assert.Equal(["application/json", "application/proto", "application/b64"], ContentTypes(connect.GetProperty("requestBody")));
    }

    [Fact]
    public async Task EachProtoHttpRouteListsOneTypePerCodecItReadsOrWrites()
    {
        var document = await OpenApiDocument.GetAsync(_server.Client);

        var unary = document.Operation("/ProtoService.proto/Search", "post");
        Assert.Equal(
            ["application/json", "application/x-protobuf", "application/xml", "application/x-www-form-urlencoded", Base64ProtobufCodec.MediaType],
            ContentTypes(unary.GetProperty("requestBody")));
        Assert.Equal(["application/json", "application/x-protobuf", "application/xml", Base64ProtobufCodec.MediaType], ContentTypes(unary.GetProperty("responses").GetProperty("200")));
        var stream = document.Operation("/NorthwindStreams.proto/ReplayOrders", "get");
        Assert.Equal(
            ["text/event-stream", "application/x-ndjson", "application/connect+proto", "application/connect+json", "application/connect+b64"],
            ContentTypes(stream.GetProperty("responses").GetProperty("200")));
        Assert.Equal(["application/json", "application/x-protobuf", Base64ProtobufCodec.MediaType], ContentTypes(stream.GetProperty("responses").GetProperty("400")));
        Assert.EndsWith("The suffixes .sse, .ndjson, .pb, .json, .b64 on the path force one.", stream.GetProperty("responses").GetProperty("200").GetProperty("description").GetString(), StringComparison.Ordinal);
        var upload = document.Operation("/NorthwindStreams.proto/UploadOrders", "post");
        Assert.Equal(["application/connect+proto", "application/connect+json", "application/connect+b64"], ContentTypes(upload.GetProperty("requestBody")));
    }

    private static List<string> ContentTypes(JsonElement bodyOrResponse) =>
        bodyOrResponse.TryGetProperty("content", out var content) ? [.. content.EnumerateObject().Select(type => type.Name)] : [];
}
