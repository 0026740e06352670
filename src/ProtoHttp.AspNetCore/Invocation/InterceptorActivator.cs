using System.Diagnostics.CodeAnalysis;
using Grpc.Core.Interceptors;
using Microsoft.Extensions.DependencyInjection;

namespace ProtoHttp.AspNetCore.Invocation;

/// <summary>
/// Gives each call an instance of one registered interceptor, decided once at startup as grpc-dotnet decides it per
/// call: the one DI holds when it was added without arguments and DI has it (its lifetime is DI's), else a new one
/// from a constructor factory compiled once, with the registration's arguments, disposed after the call.
/// </summary>
internal sealed class InterceptorActivator
{
    private readonly Type _type;
    private readonly object[] _args;
    private readonly ObjectFactory? _factory;

    public InterceptorActivator(InterceptorRegistration registration, IServiceProvider services)
    {
        _type = registration.Type;
        _args = registration.Args;
        var fromServices = _args.Length == 0 && (services.GetService<IServiceProviderIsService>()?.IsService(_type) ?? false);
        _factory = fromServices ? null : CreateFactory(registration.Type, _args);
    }

    public Handle Create(IServiceProvider requestServices) => _factory is null
        ? new Handle((Interceptor)requestServices.GetRequiredService(_type), Created: false)
        : new Handle((Interceptor)_factory(requestServices, _args), Created: true);

    private static ObjectFactory CreateFactory([DynamicallyAccessedMembers(DynamicallyAccessedMemberTypes.PublicConstructors)] Type type, object[] args)
    {
        var argumentTypes = new Type[args.Length];
        for (var i = 0; i < args.Length; i++)
        {
            argumentTypes[i] = args[i]?.GetType() ?? typeof(object);
        }

        return ActivatorUtilities.CreateFactory(type, argumentTypes);
    }

    public readonly record struct Handle(Interceptor Instance, bool Created)
    {
        public ValueTask ReleaseAsync() => Created ? CreatedInstance.DisposeAsync(Instance) : ValueTask.CompletedTask;
    }
}
