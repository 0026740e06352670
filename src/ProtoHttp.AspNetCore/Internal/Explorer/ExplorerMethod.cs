using Google.Protobuf.Reflection;
using Microsoft.AspNetCore.Http;
using Microsoft.AspNetCore.Http.Metadata;
using Microsoft.AspNetCore.Routing;

namespace ProtoHttp.AspNetCore.Internal.Explorer;

/// <summary>
/// A method the explorer shows: its ProtoHttp endpoint (the plain <c>/B/{Method}</c> route, whose metadata carries
/// the authorization the method's calls need) and that route's path. Read from the application's endpoints, so the
/// explorer shows what is mapped, with the conventions the app added.
/// </summary>
internal sealed record ExplorerMethod(Endpoint Endpoint, ProtoHttpMethodMetadata Metadata, string Route)
{
    public MethodDescriptor Descriptor => Metadata.Method;

    /// <summary>The path of the service's .proto file, where its explorer page is: the route without <c>/{Method}</c>.</summary>
    public string FilePath => Route[..^(Descriptor.Name.Length + 1)];

    /// <summary>The paths where a .proto file (and so its explorer page) is served; <c>ServeProtoFile = false</c> has none.</summary>
    public static HashSet<string> FilePaths(EndpointDataSource endpoints) =>
        endpoints.Endpoints
            .OfType<RouteEndpoint>()
            .Where(endpoint => endpoint.Metadata.GetMetadata<FileDescriptor>() is not null)
            .Select(endpoint => "/" + endpoint.RoutePattern.RawText!.TrimStart('/'))
            .ToHashSet(StringComparer.OrdinalIgnoreCase);

    /// <summary>
    /// Every ProtoHttp method endpoint of the application, in mapping order, less those excluded from descriptions
    /// (<c>ExcludeFromDescription()</c>), which OpenAPI leaves out too.
    /// </summary>
    public static IReadOnlyList<ExplorerMethod> All(EndpointDataSource endpoints) =>
        [.. endpoints.Endpoints
            .OfType<RouteEndpoint>()
            .Select(endpoint => (Endpoint: endpoint, Metadata: endpoint.Metadata.GetMetadata<ProtoHttpMethodMetadata>()))
            .Where(e => e.Metadata is { Protocol: ProtoHttpProtocol.ProtoHttp, FormatSuffix: "" }
                && e.Endpoint.Metadata.GetMetadata<IExcludeFromDescriptionMetadata>() is not { ExcludeFromDescription: true })
            .Select(e => new ExplorerMethod(e.Endpoint, e.Metadata!, "/" + e.Endpoint.RoutePattern.RawText!.TrimStart('/')))];
}
