using System.Diagnostics.CodeAnalysis;
using Microsoft.AspNetCore.Routing;
using Microsoft.Extensions.DependencyInjection;
using ProtoHttp.AspNetCore;
using ProtoHttp.AspNetCore.Internal;
using ProtoHttp.AspNetCore.Pipeline;

namespace Microsoft.AspNetCore.Builder;

/// <summary>Maps protobuf services as ProtoHttp endpoints.</summary>
public static class ProtoHttpEndpointRouteBuilderExtensions
{
    /// <summary>
    /// Maps every method of <typeparamref name="TService"/> under <c>/{file}.proto/{Method}</c> (plus the
    /// <c>.json</c>, <c>.xml</c> and <c>.pb</c> suffixes), the <c>.proto</c> source at <c>/{file}.proto</c>, and a 404
    /// for any other path under the prefix, and its Connect procedures unless Connect is off. Methods are discovered
    /// once, here; each registered protocol adds its endpoints for them; each call gets its service instance from DI
    /// (or a new one when the class is not registered).
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

        return services.GetRequiredService<ProtoServiceRouteBuilder>().Map<TService>(endpoints, pathPrefix);
    }
}
