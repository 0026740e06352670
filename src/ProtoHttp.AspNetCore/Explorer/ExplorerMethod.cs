using Google.Protobuf.Reflection;
using Microsoft.AspNetCore.Http;
using Microsoft.AspNetCore.Http.Metadata;
using Microsoft.AspNetCore.Routing;

namespace ProtoHttp.AspNetCore.Explorer;

/// <summary>
/// A method the explorer shows: its ProtoHttp endpoint (the plain <c>/B/{Method}</c> route, whose metadata carries
/// the authorization the method's calls need), that route's path, and the metadata of its suffix routes
/// (<c>.json</c>, an added codec's). Read from the application's endpoints, so the explorer shows what is mapped, with
/// the conventions the app added: what each route reads and writes is its <see cref="ProtoHttpMethodMetadata"/>.
/// <see cref="OtherRoutes"/> are the same method's described endpoints in other protocols (Connect's procedure path, and any
/// protocol added later, REST routes among them), listed from their metadata alone. <see cref="RestRoutes"/> are those
/// that carry a <see cref="RestRouteMetadata"/>, which says what the path, the query and the body bind: each gets a form.
/// </summary>
internal sealed record ExplorerMethod(
    Endpoint Endpoint,
    ProtoHttpMethodMetadata Metadata,
    string Route,
    IReadOnlyList<ProtoHttpMethodMetadata> SuffixRoutes,
    IReadOnlyList<(ProtoHttpMethodMetadata Metadata, string Route)> OtherRoutes,
    IReadOnlyList<(ProtoHttpMethodMetadata Metadata, RestRouteMetadata Binding)> RestRoutes)
{
    public MethodDescriptor Descriptor => Metadata.Method;

    /// <summary>The path of the service's .proto file, where its explorer page is: the route without <c>/{Method}</c>.</summary>
    public string FilePath => Route[..^(Descriptor.Name.Length + 1)];

    /// <summary>The method's Connect procedure path, <c>/{package.Service}/{Method}</c>, where Connect is mapped for it.</summary>
    public string? ConnectRoute => OtherRoutes.FirstOrDefault(r => r.Metadata.Protocol == ProtocolNames.Connect).Route;

    /// <summary>The paths where a .proto file (and so its explorer page) is served; <c>ServeProtoFile = false</c> has none.</summary>
    public static HashSet<string> FilePaths(EndpointDataSource endpoints) =>
        endpoints.Endpoints
            .OfType<RouteEndpoint>()
            .Where(endpoint => endpoint.Metadata.GetMetadata<FileDescriptor>() is not null)
            .Select(endpoint => "/" + endpoint.RoutePattern.RawText!.TrimStart('/'))
            .ToHashSet(StringComparer.OrdinalIgnoreCase);

    /// <summary>
    /// Every ProtoHttp method endpoint of the application, in mapping order, less those excluded from descriptions
    /// (<c>ExcludeFromDescription()</c>), which OpenAPI leaves out too; each with its suffix routes.
    /// </summary>
    public static IReadOnlyList<ExplorerMethod> All(EndpointDataSource endpoints)
    {
        var mapped = endpoints.Endpoints
            .OfType<RouteEndpoint>()
            .Select(endpoint => (Endpoint: endpoint, Metadata: endpoint.Metadata.GetMetadata<ProtoHttpMethodMetadata>()!, Route: "/" + endpoint.RoutePattern.RawText!.TrimStart('/')))
            .Where(e => e.Metadata is not null
                && e.Endpoint.Metadata.GetMetadata<IExcludeFromDescriptionMetadata>() is not { ExcludeFromDescription: true })
            .ToList();
        var described = mapped.Where(e => e.Metadata.Protocol == ProtocolNames.ProtoHttp).ToList();
        var otherRoutes = mapped
            .Where(e => e.Metadata.Protocol != ProtocolNames.ProtoHttp && e.Metadata.FormatSuffix.Length == 0)
            .ToLookup(e => e.Metadata.Method, e => (e.Metadata, e.Route));
        var restRoutes = mapped
            .Where(e => e.Endpoint.Metadata.GetMetadata<RestRouteMetadata>() is not null)
            .ToLookup(e => e.Metadata.Method, e => (e.Metadata, Binding: e.Endpoint.Metadata.GetMetadata<RestRouteMetadata>()!));
        var suffixRoutes = described
            .Where(e => e.Metadata.FormatSuffix.Length > 0)
            .ToLookup(e => e.Route[..^e.Metadata.FormatSuffix.Length], e => e.Metadata, StringComparer.Ordinal);
        return [.. described
            .Where(e => e.Metadata.FormatSuffix.Length == 0)
            .Select(e => new ExplorerMethod(e.Endpoint, e.Metadata, e.Route, [.. suffixRoutes[e.Route]], [.. otherRoutes[e.Metadata.Method].Distinct()], [.. restRoutes[e.Metadata.Method]]))];
    }
}
