using Microsoft.Extensions.DependencyInjection;

namespace ProtoHttp.AspNetCore.Internal;

/// <summary>
/// Gives each call its service instance: the one registered in DI when there is one (its lifetime is DI's),
/// else a new one made with a constructor factory compiled once, disposed after the call.
/// </summary>
internal sealed class ServiceActivator<TService>
    where TService : class
{
    private readonly ObjectFactory<TService>? _factory;

    /// <param name="services">The application's services.</param>
    /// <param name="createFactory">
    /// Makes the constructor factory; created where <typeparamref name="TService"/> carries the trimming annotation
    /// that keeps its constructors (MapProtoService), so this class and the invokers holding it need none.
    /// </param>
    public ServiceActivator(IServiceProvider services, Func<ObjectFactory<TService>> createFactory)
    {
        var registered = services.GetService<IServiceProviderIsService>()?.IsService(typeof(TService)) ?? false;
        // Only a class DI does not make is made here; one DI makes (grpc-dotnet's reflection service, say) may have
        // constructors ActivatorUtilities cannot choose between.
        _factory = registered ? null : createFactory();
    }

    public ServiceHandle Create(IServiceProvider requestServices) => _factory is null
        ? new ServiceHandle(requestServices.GetRequiredService<TService>(), Created: false)
        : new ServiceHandle(_factory(requestServices, null), Created: true);

    public readonly record struct ServiceHandle(TService Instance, bool Created)
    {
        public ValueTask ReleaseAsync() => Created ? CreatedInstance.DisposeAsync(Instance) : ValueTask.CompletedTask;

        /// <summary>Whether <see cref="ReleaseAsync"/> does anything: the instance was made for the call and is disposable.</summary>
        public bool NeedsRelease => Created && Instance is IDisposable or IAsyncDisposable;
    }
}
