using System.Diagnostics.CodeAnalysis;
using Microsoft.AspNetCore.Antiforgery;
using Microsoft.AspNetCore.Routing;
using Microsoft.Extensions.DependencyInjection;
using Microsoft.Extensions.Hosting;
using Microsoft.Extensions.Logging;
using Microsoft.Extensions.Options;
using ProtoHttp.AspNetCore.Caching;
using ProtoHttp.AspNetCore.Internal;
using ProtoHttp.AspNetCore.Invocation;

namespace ProtoHttp.AspNetCore.Pipeline;

/// <summary>
/// What <c>MapProtoService&lt;TService&gt;()</c> asks to map a service, resolved from DI (as grpc-dotnet's
/// <c>ServiceRouteBuilder</c>): builds the service's settings once, binds its methods, and lets every registered
/// <see cref="CallProtocol"/> add its endpoints, in registration order.
/// </summary>
internal sealed class ProtoServiceRouteBuilder(IEnumerable<CallProtocol> protocols)
{
    private readonly CallProtocol[] _protocols = [.. protocols];

    public ProtoServiceEndpointConventionBuilder Map<[DynamicallyAccessedMembers(DynamicallyAccessedMemberTypes.PublicMethods | DynamicallyAccessedMemberTypes.PublicConstructors)] TService>(
        IEndpointRouteBuilder endpoints, string? pathPrefix)
        where TService : class
    {
        var services = endpoints.ServiceProvider;
        var service = ServiceModel.For(typeof(TService));
        var options = services.GetRequiredService<IOptionsMonitor<ProtoHttpOptions>>().Get(ServiceOptionsName.For<TService>());
        var logger = services.GetRequiredService<ILoggerFactory>().CreateLogger("ProtoHttp." + service.Descriptor.FullName);
        var codecs = new MessageCodecs(options.ToFormatOptions(service.Descriptor.File), options.Codecs);

        ConditionalGet.CheckOptions(service.Descriptor, options);
        var detailedErrors = options.EnableDetailedErrors ?? services.GetRequiredService<IHostEnvironment>().IsDevelopment();
        var restrictGet = options.RestrictGetToNoSideEffectMethods ?? AmbientCredentials.InUse(services);
        var interceptors = options.Interceptors.InRunOrder.Select(r => new InterceptorActivator(r, services)).ToArray();
        // The factory is made and the constructors read here, where TService's constructors are kept for trimming (its annotation).
        var activator = new ServiceActivator<TService>(
            services, static () => ActivatorUtilities.CreateFactory<TService>([]), typeof(TService).GetConstructors());
        var settings = new ServiceCallSettings<TService>(
            options, detailedErrors, restrictGet, codecs, InPlaceBodyLimit.For(services), logger, activator, interceptors);

        var binder = new ProtoHttpServiceBinder<TService>(service, settings);
        service.BindMethod.Invoke(null, [binder, null]);

        var serviceMetadata = typeof(TService).GetCustomAttributes(inherit: true);
        if (services.GetService<IAntiforgery>() is not null)
        {
            // Form posts are what cross-site request forgery sends; when the app uses antiforgery, they need a token.
            serviceMetadata = [new RequireAntiforgeryTokenAttribute(), .. serviceMetadata];
        }

        var prefix = NormalizePrefix(pathPrefix ?? "/" + service.FileName);
        var protoSource = new Lazy<byte[]?>(() => ProtoSourceResource.TryLoad(service.FileName, typeof(TService).Assembly, service.BindType.Assembly));
        var mapping = new ServiceEndpoints(endpoints, typeof(TService), service, settings, prefix, binder.Methods, serviceMetadata, protoSource);
        CheckDisabledProtocols(options);
        foreach (var protocol in _protocols)
        {
            if (!options.DisabledProtocols.Contains(protocol.Name))
            {
                protocol.MapEndpoints(mapping);
            }
        }

        return new ProtoServiceEndpointConventionBuilder(mapping.MethodEndpoints, mapping.ProtoFile);
    }

    private void CheckDisabledProtocols(ProtoHttpOptions options)
    {
        foreach (var name in options.DisabledProtocols)
        {
            if (!_protocols.Any(protocol => string.Equals(protocol.Name, name, StringComparison.OrdinalIgnoreCase)))
            {
                throw new InvalidOperationException(
                    $"ProtoHttpOptions.DisabledProtocols names '{name}', which no registered protocol is called; the protocols are {string.Join(", ", _protocols.Select(p => p.Name))}.");
            }
        }
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
