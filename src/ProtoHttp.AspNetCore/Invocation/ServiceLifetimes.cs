using Microsoft.Extensions.DependencyInjection;

namespace ProtoHttp.AspNetCore.Invocation;

/// <summary>
/// The lifetimes the application registered its services with, read from the service collection
/// <c>AddProtoHttp()</c> was given (the provider does not tell them). Lets a service whose instance needs nothing
/// scoped be made without the request's scope: a held stream keeps that scope for as long as it is open (W5,
/// docs/benchmarks.md).
/// </summary>
internal sealed class ServiceLifetimes(IServiceCollection services)
{
    /// <summary>
    /// Whether <paramref name="serviceType"/> resolves to a singleton: the last registration DI would use is one
    /// (an exact registration before an open generic one, as DI chooses). Unknown types and services DI provides
    /// itself (<see cref="IServiceProvider"/>, <c>IEnumerable&lt;T&gt;</c>) are not, so they keep the request's scope.
    /// </summary>
    public bool IsSingleton(Type serviceType)
    {
        var lifetime = LastLifetime(serviceType);
        if (lifetime is null && serviceType.IsConstructedGenericType)
        {
            lifetime = LastLifetime(serviceType.GetGenericTypeDefinition());
        }

        return lifetime == ServiceLifetime.Singleton;
    }

    private ServiceLifetime? LastLifetime(Type serviceType)
    {
        ServiceLifetime? lifetime = null;
        foreach (var descriptor in services)
        {
            if (!descriptor.IsKeyedService && descriptor.ServiceType == serviceType)
            {
                lifetime = descriptor.Lifetime;
            }
        }

        return lifetime;
    }
}
