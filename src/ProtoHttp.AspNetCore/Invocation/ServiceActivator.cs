using System.Reflection;
using Microsoft.AspNetCore.Http;
using Microsoft.Extensions.DependencyInjection;

namespace ProtoHttp.AspNetCore.Invocation;

/// <summary>
/// Gives each call its service instance: the one registered in DI when there is one (its lifetime is DI's),
/// else a new one made with a constructor factory compiled once, disposed after the call.
/// </summary>
/// <remarks>
/// Like grpc-dotnet, the instance comes from the request's scope (<see cref="HttpContext.RequestServices"/>), except
/// when nothing in it can be scoped: a service registered as a singleton, or one DI does not make whose one public
/// constructor takes only singletons. Then the application's root provider gives exactly what the scope would
/// (DI hands out the same singletons from either), and the call never makes a request scope: an open stream keeps it
/// for as long as it is open, about 260 B of each of W5's 10,000 subscribers (docs/benchmarks.md). A service made
/// here is still made and disposed per call; scoped and transient services, and any constructor that takes something
/// else (the <see cref="IServiceProvider"/>, a keyed service), keep the request's scope.
/// </remarks>
internal sealed class ServiceActivator<TService>
    where TService : class
{
    private readonly ObjectFactory<TService>? _factory;

    // The root provider when the instance needs nothing scoped; null: the request's scope.
    private readonly IServiceProvider? _root;

    /// <param name="services">The application's services (the root provider).</param>
    /// <param name="createFactory">
    /// Makes the constructor factory; created where <typeparamref name="TService"/> carries the trimming annotation
    /// that keeps its constructors (MapProtoService), so this class and the invokers holding it need none.
    /// </param>
    /// <param name="constructors"><typeparamref name="TService"/>'s public constructors, read where they are kept.</param>
    public ServiceActivator(IServiceProvider services, Func<ObjectFactory<TService>> createFactory, ConstructorInfo[] constructors)
    {
        var registered = services.GetService<IServiceProviderIsService>()?.IsService(typeof(TService)) ?? false;
        // Only a class DI does not make is made here; one DI makes (grpc-dotnet's reflection service, say) may have
        // constructors ActivatorUtilities cannot choose between.
        _factory = registered ? null : createFactory();
        var lifetimes = services.GetService<ServiceLifetimes>();
        var needsNothingScoped = lifetimes is not null && (registered
            ? lifetimes.IsSingleton(typeof(TService))
            : constructors is [var constructor] && TakesOnlySingletons(constructor, lifetimes));
        _root = needsNothingScoped ? services : null;
    }

    public ServiceHandle Create(HttpContext httpContext)
    {
        var provider = _root ?? httpContext.RequestServices;
        return _factory is null
            ? new ServiceHandle(provider.GetRequiredService<TService>(), Created: false)
            : new ServiceHandle(_factory(provider, null), Created: true);
    }

    private static bool TakesOnlySingletons(ConstructorInfo constructor, ServiceLifetimes lifetimes)
    {
        foreach (var parameter in constructor.GetParameters())
        {
            if (parameter.IsDefined(typeof(FromKeyedServicesAttribute), inherit: false)
                || parameter.IsDefined(typeof(ServiceKeyAttribute), inherit: false)
                || !lifetimes.IsSingleton(parameter.ParameterType))
            {
                return false;
            }
        }

        return true;
    }

    public readonly record struct ServiceHandle(TService Instance, bool Created)
    {
        public ValueTask ReleaseAsync() => Created ? CreatedInstance.DisposeAsync(Instance) : ValueTask.CompletedTask;

        /// <summary>Whether <see cref="ReleaseAsync"/> does anything: the instance was made for the call and is disposable.</summary>
        public bool NeedsRelease => Created && Instance is IDisposable or IAsyncDisposable;
    }
}
