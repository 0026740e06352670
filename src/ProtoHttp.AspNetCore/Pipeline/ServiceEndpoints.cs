using Microsoft.AspNetCore.Builder;
using Microsoft.AspNetCore.Http;
using Microsoft.AspNetCore.Routing;
using ProtoHttp.AspNetCore.Caching;
using ProtoHttp.AspNetCore.Internal;

namespace ProtoHttp.AspNetCore.Pipeline;

/// <summary>
/// One <c>MapProtoService</c> call as the protocols see it when they add their endpoints (as grpc-dotnet's
/// <c>ServiceMethodProviderContext</c>): the service, its bound methods, its settings, and the endpoints mapped so far.
/// </summary>
internal sealed class ServiceEndpoints(
    IEndpointRouteBuilder endpoints, Type serviceType, ServiceModel service, CallSettings settings, string prefix,
    IReadOnlyList<BoundMethod> methods, IReadOnlyList<object> serviceMetadata, Lazy<byte[]?> protoSource)
{
    public IEndpointRouteBuilder Endpoints { get; } = endpoints;

    /// <summary>The service class mapped.</summary>
    public Type ServiceType { get; } = serviceType;

    public ServiceModel Service { get; } = service;

    public CallSettings Settings { get; } = settings;

    /// <summary>The prefix of ProtoHttp's own routes, <c>/{file}.proto</c> unless the app chose another.</summary>
    public string Prefix { get; } = prefix;

    public IReadOnlyList<BoundMethod> Methods { get; } = methods;

    /// <summary>The service class's attributes (and an antiforgery requirement where the app uses antiforgery), on every endpoint.</summary>
    public IReadOnlyList<object> ServiceMetadata { get; } = serviceMetadata;

    /// <summary>The service's <c>.proto</c> source, loaded on first use; every route of the service carries it (<see cref="CallRoute.ProtoSource"/>).</summary>
    public Lazy<byte[]?> ProtoSource { get; } = protoSource;

    /// <summary>The endpoints the service's conventions apply to.</summary>
    public List<IEndpointConventionBuilder> MethodEndpoints { get; } = [];

    /// <summary>The endpoint of the <c>.proto</c> source, with conventions of its own; null where none is served.</summary>
    public IEndpointConventionBuilder? ProtoFile { get; set; }

    /// <summary>
    /// Maps one route of <paramref name="method"/> with what every method endpoint carries: the service's and the
    /// method's attributes, its descriptor, the <see cref="ProtoHttpMethodMetadata"/> that describes the route, and the
    /// <see cref="EndpointErrorWriter"/> that answers refusals made before the handler runs in the route's protocol.
    /// </summary>
    public IEndpointConventionBuilder MapMethod(BoundMethod method, CallRoute route, RequestDelegate handler, string displayName, params object[] metadata)
    {
        ProtoHttpLog.MethodMapped(Settings.Logger, method.Name + route.Suffix, route.Pattern);
        var description = route.Metadata;
        var errors = new EndpointErrorWriter(method.Name, Settings.Logger, Settings.Codecs, route.Protocol, route.ErrorType);
        var builder = Endpoints.Map(route.Pattern, handler)
            .WithDisplayName(displayName)
            .WithMetadata([.. ServiceMetadata, .. method.Metadata, method.Descriptor, .. metadata, description, errors]);
        // Streams are never stored by the app's output cache, and the rest are stored per negotiated answer.
        ProtoHttpOutputCachePolicy.AddTo(builder, streaming: route.Kind != Grpc.Core.MethodType.Unary);
        MethodEndpoints.Add(builder);
        return builder;
    }
}
