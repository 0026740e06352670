using System.Reflection;
using Grpc.Core;
using ProtoHttp.AspNetCore.Connect;

namespace ProtoHttp.AspNetCore.Internal;

/// <summary>
/// Receives the methods the generated <c>BindService</c> declares and turns each into a <see cref="BoundMethod"/>.
/// <c>BindService</c> is called without an instance, as grpc-dotnet does, so the delegate it passes is null: the method
/// is found on <typeparamref name="TService"/> by name and called through an open delegate on each call's instance.
/// </summary>
internal sealed class ProtoHttpServiceBinder<TService>(ServiceModel service, ServiceCallSettings<TService> settings) : ServiceBinderBase
    where TService : class
{
    public List<BoundMethod> Methods { get; } = [];

    public override void AddMethod<TRequest, TResponse>(Method<TRequest, TResponse> method, UnaryServerMethod<TRequest, TResponse>? handler)
    {
        var serviceMethod = FindServiceMethod(method.Name, typeof(TRequest), typeof(ServerCallContext));
        var call = serviceMethod.CreateDelegate<Func<TService, TRequest, ServerCallContext, Task<TResponse>>>();
        var invoker = new UnaryMethodInvoker<TService, TRequest, TResponse>(method.Name, call, settings.Activator, settings.Interceptors);
        var callHandler = new UnaryCallHandler<TService, TRequest, TResponse>(method, Descriptor(method), invoker, settings);
        var connectHandler = settings.Options.EnableConnect
            ? new ConnectUnaryHandler<TService, TRequest, TResponse>(method, Descriptor(method), invoker, settings).HandleCallAsync
            : (Microsoft.AspNetCore.Http.RequestDelegate?)null;
        Add(method, serviceMethod, callHandler.HandlerFor, connectHandler);
    }

    public override void AddMethod<TRequest, TResponse>(Method<TRequest, TResponse> method, ClientStreamingServerMethod<TRequest, TResponse>? handler) =>
        AddStreaming(method);

    public override void AddMethod<TRequest, TResponse>(Method<TRequest, TResponse> method, ServerStreamingServerMethod<TRequest, TResponse>? handler) =>
        AddStreaming(method);

    public override void AddMethod<TRequest, TResponse>(Method<TRequest, TResponse> method, DuplexStreamingServerMethod<TRequest, TResponse>? handler) =>
        AddStreaming(method);

    private void AddStreaming(IMethod method)
    {
        var streaming = new StreamingMethodHandler(method, settings.Codecs, settings.Logger);
        Add(method, serviceMethod: null, streaming.HandlerFor);
    }

    private void Add(
        IMethod method, MethodInfo? serviceMethod, Func<WritableMediaType?, Microsoft.AspNetCore.Http.RequestDelegate> handler,
        Microsoft.AspNetCore.Http.RequestDelegate? connectHandler = null)
    {
        var metadata = serviceMethod?.GetCustomAttributes(inherit: true) ?? [];
        Methods.Add(new BoundMethod(method.Name, Descriptor(method), metadata, handler, connectHandler));
    }

    private Google.Protobuf.Reflection.MethodDescriptor Descriptor(IMethod method) =>
        service.Descriptor.FindMethodByName(method.Name)
        ?? throw new InvalidOperationException($"Method {method.FullName} is bound but not in {service.Descriptor.FullName}'s descriptor: regenerate the service.");

    private static MethodInfo FindServiceMethod(string name, params Type[] parameters) =>
        typeof(TService).GetMethod(name, BindingFlags.Public | BindingFlags.Instance, parameters)
        ?? throw new InvalidOperationException($"{typeof(TService).Name}.{name}({parameters[0].Name}, ServerCallContext) was not found.");
}
