using System.Diagnostics.CodeAnalysis;
using System.Reflection;
using Grpc.Core;
using Microsoft.AspNetCore.Http;
using ProtoHttp.AspNetCore.Internal;
using ProtoHttp.AspNetCore.Pipeline;

namespace ProtoHttp.AspNetCore.Invocation;

/// <summary>
/// Receives the methods the generated <c>BindService</c> declares and turns each into a <see cref="BoundMethod"/>: its
/// invoker, and how its kind makes a handler for a route of any protocol.
/// <c>BindService</c> is called without an instance, as grpc-dotnet does, so the delegate it passes is null: the method
/// is found on <typeparamref name="TService"/> by name and called through an open delegate on each call's instance.
/// </summary>
internal sealed class ProtoHttpServiceBinder<[DynamicallyAccessedMembers(DynamicallyAccessedMemberTypes.PublicMethods)] TService>(ServiceModel service, ServiceCallSettings<TService> settings) : ServiceBinderBase
    where TService : class
{
    public List<BoundMethod> Methods { get; } = [];

    public override void AddMethod<TRequest, TResponse>(Method<TRequest, TResponse> method, UnaryServerMethod<TRequest, TResponse>? handler)
    {
        var serviceMethod = FindServiceMethod(method.Name, typeof(TRequest), typeof(ServerCallContext));
        var call = serviceMethod.CreateDelegate<Func<TService, TRequest, ServerCallContext, Task<TResponse>>>();
        var invoker = new UnaryMethodInvoker<TService, TRequest, TResponse>(method.Name, call, settings.Activator, settings.Interceptors);
        Add(method, serviceMethod, route => new UnaryServerCallHandler<TService, TRequest, TResponse>(route, invoker).HandleCallAsync);
    }

    public override void AddMethod<TRequest, TResponse>(Method<TRequest, TResponse> method, ServerStreamingServerMethod<TRequest, TResponse>? handler)
    {
        var serviceMethod = FindServiceMethod(method.Name, typeof(TRequest), typeof(IServerStreamWriter<TResponse>), typeof(ServerCallContext));
        var call = serviceMethod.CreateDelegate<Func<TService, TRequest, IServerStreamWriter<TResponse>, ServerCallContext, Task>>();
        var invoker = new ServerStreamingMethodInvoker<TService, TRequest, TResponse>(call, settings.Activator, settings.Interceptors);
        Add(method, serviceMethod, route => new ServerStreamingServerCallHandler<TService, TRequest, TResponse>(route, invoker).HandleCallAsync);
    }

    public override void AddMethod<TRequest, TResponse>(Method<TRequest, TResponse> method, ClientStreamingServerMethod<TRequest, TResponse>? handler)
    {
        var serviceMethod = FindServiceMethod(method.Name, typeof(IAsyncStreamReader<TRequest>), typeof(ServerCallContext));
        var call = serviceMethod.CreateDelegate<Func<TService, IAsyncStreamReader<TRequest>, ServerCallContext, Task<TResponse>>>();
        var invoker = new ClientStreamingMethodInvoker<TService, TRequest, TResponse>(method.Name, call, settings.Activator, settings.Interceptors);
        Add(method, serviceMethod, route => new ClientStreamingServerCallHandler<TService, TRequest, TResponse>(route, invoker).HandleCallAsync);
    }

    public override void AddMethod<TRequest, TResponse>(Method<TRequest, TResponse> method, DuplexStreamingServerMethod<TRequest, TResponse>? handler)
    {
        var serviceMethod = FindServiceMethod(method.Name, typeof(IAsyncStreamReader<TRequest>), typeof(IServerStreamWriter<TResponse>), typeof(ServerCallContext));
        var call = serviceMethod.CreateDelegate<Func<TService, IAsyncStreamReader<TRequest>, IServerStreamWriter<TResponse>, ServerCallContext, Task>>();
        var invoker = new DuplexStreamingMethodInvoker<TService, TRequest, TResponse>(call, settings.Activator, settings.Interceptors);
        Add(method, serviceMethod, route => new DuplexStreamingServerCallHandler<TService, TRequest, TResponse>(route, invoker).HandleCallAsync);
    }

    // The invoker is made once per method; each protocol's route gets its own handler over it.
    private void Add(IMethod method, MethodInfo serviceMethod, Func<CallRoute, RequestDelegate> handler)
    {
        var metadata = serviceMethod.GetCustomAttributes(inherit: true);
        Methods.Add(new BoundMethod(method, Descriptor(method), metadata, handler));
    }

    private Google.Protobuf.Reflection.MethodDescriptor Descriptor(IMethod method) =>
        service.Descriptor.FindMethodByName(method.Name)
        ?? throw new InvalidOperationException($"Method {method.FullName} is bound but not in {service.Descriptor.FullName}'s descriptor: regenerate the service.");

    private static MethodInfo FindServiceMethod(string name, params Type[] parameters) =>
        typeof(TService).GetMethod(name, BindingFlags.Public | BindingFlags.Instance, parameters)
        ?? throw new InvalidOperationException($"{typeof(TService).Name}.{name}({string.Join(", ", parameters.Select(p => p.Name))}) was not found.");
}
