using System.Diagnostics.CodeAnalysis;
using Microsoft.AspNetCore.Antiforgery;
using Microsoft.AspNetCore.Routing;
using Microsoft.Extensions.DependencyInjection;
using Microsoft.Extensions.Hosting;
using Microsoft.Extensions.Logging;
using Microsoft.Extensions.Options;
using ProtoHttp;
using ProtoHttp.AspNetCore;
using ProtoHttp.AspNetCore.Connect;
using ProtoHttp.AspNetCore.GrpcWeb;
using ProtoHttp.AspNetCore.Internal;
using ProtoHttp.AspNetCore.Internal.Explorer;

namespace Microsoft.AspNetCore.Builder;

/// <summary>Maps protobuf services as ProtoHttp endpoints.</summary>
public static class ProtoHttpEndpointRouteBuilderExtensions
{
    /// <summary>
    /// Maps every method of <typeparamref name="TService"/> under <c>/{file}.proto/{Method}</c> (plus the
    /// <c>.json</c>, <c>.xml</c> and <c>.pb</c> suffixes), the <c>.proto</c> source at <c>/{file}.proto</c>, and a 404
    /// for any other path under the prefix. Methods are discovered once, here; each call gets its service instance
    /// from DI (or a new one when the class is not registered).
    /// </summary>
    /// <typeparam name="TService">A class derived from the Grpc.Tools-generated <c>XxxBase</c>.</typeparam>
    /// <param name="endpoints">The application's endpoints.</param>
    /// <param name="pathPrefix">The route prefix; <see langword="null"/> for <c>/</c> + the .proto file's name.</param>
    /// <returns>A builder whose conventions apply to every method endpoint.</returns>
    public static ProtoServiceEndpointConventionBuilder MapProtoService<[DynamicallyAccessedMembers(DynamicallyAccessedMemberTypes.PublicMethods | DynamicallyAccessedMemberTypes.PublicConstructors)] TService>(
        this IEndpointRouteBuilder endpoints, string? pathPrefix = null)
        where TService : class
    {
        ArgumentNullException.ThrowIfNull(endpoints);
        var services = endpoints.ServiceProvider;
        if (services.GetService<ProtoHttpMarkerService>() is null)
        {
            throw new InvalidOperationException(
                "MapProtoService needs ProtoHttp's services: add builder.Services.AddProtoHttp() before building the application.");
        }

        var service = ServiceModel.For(typeof(TService));
        var options = services.GetRequiredService<IOptionsMonitor<ProtoHttpOptions>>().Get(ServiceOptionsName.For<TService>());
        var logger = services.GetRequiredService<ILoggerFactory>().CreateLogger("ProtoHttp." + service.Descriptor.FullName);
        var codecs = new MessageCodecs(options.ToFormatOptions(service.Descriptor.File));
        var detailedErrors = options.EnableDetailedErrors ?? services.GetRequiredService<IHostEnvironment>().IsDevelopment();
        var restrictGet = options.RestrictGetToNoSideEffectMethods ?? AmbientCredentials.InUse(services);
        var interceptors = options.Interceptors.InRunOrder.Select(r => new InterceptorActivator(r, services)).ToArray();
        var settings = new ServiceCallSettings<TService>(
            options, detailedErrors, restrictGet, codecs, InPlaceBodyLimit.For(services), logger, new ServiceActivator<TService>(services), interceptors);

        var binder = new ProtoHttpServiceBinder<TService>(service, settings);
        service.BindMethod.Invoke(null, [binder, null]);

        var prefix = NormalizePrefix(pathPrefix ?? "/" + service.FileName);
        var serviceMetadata = typeof(TService).GetCustomAttributes(inherit: true);
        if (services.GetService<IAntiforgery>() is not null)
        {
            // Form posts are what cross-site request forgery sends; when the app uses antiforgery, they need a token.
            serviceMetadata = [new RequireAntiforgeryTokenAttribute(), .. serviceMetadata];
        }

        var unknown = new UnknownMethodHandler(codecs, logger);
        var methodEndpoints = new List<IEndpointConventionBuilder>();
        var protoSource = new Lazy<byte[]?>(() => ProtoFileHandler.TryLoad(service.FileName, typeof(TService).Assembly, service.BindType.Assembly));
        foreach (var method in binder.Methods)
        {
            var metadata = serviceMetadata.Concat(method.Metadata).Append(method.Descriptor).ToArray();
            var allowsGet = GetVerbPolicy.Allows(method.Descriptor, restrictGet);
            foreach (var route in method.Routes)
            {
                var description = new ProtoHttpMethodMetadata(method.Descriptor, ProtoHttpProtocol.ProtoHttp, route.Suffix, allowsGet, protoSource);
                var errors = new EndpointErrorWriter(method.Name, logger, codecs, route.ErrorType, connect: false);
                methodEndpoints.Add(MapMethod(endpoints, prefix, $"/{method.Name}{route.Suffix}", route.Handler, unknown, [.. metadata, description, errors], logger));
            }
        }

        var claimsProcedurePaths = services.GetRequiredService<ConnectPathClaims>().TryClaim(service.Descriptor.FullName);
        var connectMethods = claimsProcedurePaths ? binder.Methods.Where(m => m.ConnectHandler is not null) : [];
        foreach (var method in connectMethods)
        {
            var description = new ProtoHttpMethodMetadata(
                method.Descriptor, ProtoHttpProtocol.Connect, formatSuffix: "", GetVerbPolicy.HasNoSideEffects(method.Descriptor), protoSource);
            var errors = new EndpointErrorWriter(method.Name, logger, codecs, errorType: null, connect: true);
            var metadata = serviceMetadata.Concat(method.Metadata)
                .Append(method.Descriptor).Append(ConnectEndpointMetadata.Instance).Append(description).Append(errors).ToArray();
            methodEndpoints.Add(MapConnectMethod(endpoints, $"/{service.Descriptor.FullName}/{method.Name}", method.ConnectHandler!, metadata, logger));
        }

        // gRPC-Web answers at the same procedure paths as Connect, from the same claim.
        foreach (var method in claimsProcedurePaths ? binder.Methods.Where(m => m.GrpcWebHandler is not null) : [])
        {
            var metadata = serviceMetadata.Concat(method.Metadata).Append(method.Descriptor);
            methodEndpoints.Add(GrpcWebEndpoints.Map(endpoints, $"/{service.Descriptor.FullName}/{method.Name}", method.GrpcWebHandler!, metadata, logger));
        }

        methodEndpoints.Add(endpoints.Map($"{prefix}/{{**{UnknownMethodHandler.PathParameter}}}", unknown.HandleAsync)
            .WithDisplayName($"ProtoHttp {service.Descriptor.FullName} unknown method")
            .WithMetadata(serviceMetadata)
            .WithMetadata(new EndpointErrorWriter(service.Descriptor.FullName, logger, codecs, errorType: null, connect: false)));

        IEndpointConventionBuilder? protoFile = null;
        if (options.ServeProtoFile)
        {
            var source = ProtoFileHandler.Load(service.FileName, typeof(TService).Assembly, service.BindType.Assembly);
            protoFile = endpoints.Map(prefix, new ProtoFileHandler(source, service.Descriptor.File, codecs, services.GetRequiredService<ExplorerPages>(), logger).HandleAsync)
                .WithDisplayName($"ProtoHttp {service.FileName} source")
                .WithMetadata(new EndpointErrorWriter(prefix, logger, codecs, errorType: null, connect: false))
                .WithMetadata(service.Descriptor.File); // tells the explorer the file's page is served here
        }

        return new ProtoServiceEndpointConventionBuilder(methodEndpoints, protoFile);
    }

    private static IEndpointConventionBuilder MapMethod(
        IEndpointRouteBuilder endpoints, string prefix, string tail, Http.RequestDelegate handler, UnknownMethodHandler unknown, object[] metadata, ILogger logger)
    {
        var route = prefix + tail;
        ProtoHttpLog.MethodMapped(logger, tail[1..], route);

        // Routing matches paths case-insensitively; proto method names are exact, for every kind of method.
        Http.RequestDelegate exact = context => context.Request.Path.Value!.EndsWith(tail, StringComparison.Ordinal)
            ? handler(context)
            : unknown.HandleAsync(context);
        return endpoints.Map(route, exact).WithDisplayName("ProtoHttp " + route).WithMetadata(metadata);
    }

    private static IEndpointConventionBuilder MapConnectMethod(
        IEndpointRouteBuilder endpoints, string route, Http.RequestDelegate handler, object[] metadata, ILogger logger)
    {
        ProtoHttpLog.MethodMapped(logger, route[(route.LastIndexOf('/') + 1)..], route);

        // Procedure names are exact; another spelling is a procedure this server does not have, as Connect says.
        Http.RequestDelegate exact = context => context.Request.Path.Value == route
            ? handler(context)
            : ConnectErrorWriter.WriteAsync(context.Response, Http.StatusCodes.Status404NotFound, Grpc.Core.StatusCode.Unimplemented,
                $"No procedure {context.Request.Path.Value} here; procedure names are case-sensitive.", []);
        return endpoints.Map(route, exact).WithDisplayName("ProtoHttp Connect " + route).WithMetadata(metadata);
    }

    private static string NormalizePrefix(string prefix)
    {
        var trimmed = prefix.Trim().TrimEnd('/');
        if (trimmed.Length == 0)
        {
            throw new ArgumentException("The path prefix cannot be empty: the .proto source and the methods need a path of their own.", nameof(prefix));
        }

        return trimmed.StartsWith('/') ? trimmed : "/" + trimmed;
    }
}
