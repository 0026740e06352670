using System.Reflection;
using Grpc.Core;
using ProtoHttp.AspNetCore.Connect;
using ProtoHttp.AspNetCore.GrpcWeb;
using ProtoHttp.AspNetCore.Internal.Streaming;
using ProtoHttp.Streaming;

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
        var grpcWebHandler = settings.Options.EnableGrpcWeb
            ? GrpcWebCallHandler<TService, TRequest, TResponse>.ForUnary(method, Descriptor(method), invoker, settings).HandleCallAsync
            : (Microsoft.AspNetCore.Http.RequestDelegate?)null;
        Add(method, serviceMethod,
        [
            new(string.Empty, callHandler.HandlerFor(null)),
            Forcing(".json", MediaTypes.Canonical(MessageFormat.Json)),
            Forcing(".xml", MediaTypes.Canonical(MessageFormat.Xml)),
            Forcing(".pb", MediaTypes.Canonical(MessageFormat.Protobuf)),
        ],
        connectHandler,
        grpcWebHandler);

        MethodRoute Forcing(string suffix, WritableMediaType type) => new(suffix, callHandler.HandlerFor(type), type);
    }

    public override void AddMethod<TRequest, TResponse>(Method<TRequest, TResponse> method, ServerStreamingServerMethod<TRequest, TResponse>? handler)
    {
        var serviceMethod = FindServiceMethod(method.Name, typeof(TRequest), typeof(IServerStreamWriter<TResponse>), typeof(ServerCallContext));
        var call = serviceMethod.CreateDelegate<Func<TService, TRequest, IServerStreamWriter<TResponse>, ServerCallContext, Task>>();
        var invoker = new ServerStreamingMethodInvoker<TService, TRequest, TResponse>(call, settings.Activator, settings.Interceptors);
        AddStreaming(method, serviceMethod, new ServerStreamingCallHandler<TService, TRequest, TResponse>(method, Descriptor(method), invoker, settings),
            settings.Options.EnableGrpcWeb
                ? GrpcWebCallHandler<TService, TRequest, TResponse>.ForServerStreaming(method, Descriptor(method), invoker, settings).HandleCallAsync
                : null);
    }

    public override void AddMethod<TRequest, TResponse>(Method<TRequest, TResponse> method, ClientStreamingServerMethod<TRequest, TResponse>? handler)
    {
        var serviceMethod = FindServiceMethod(method.Name, typeof(IAsyncStreamReader<TRequest>), typeof(ServerCallContext));
        var call = serviceMethod.CreateDelegate<Func<TService, IAsyncStreamReader<TRequest>, ServerCallContext, Task<TResponse>>>();
        var invoker = new ClientStreamingMethodInvoker<TService, TRequest, TResponse>(method.Name, call, settings.Activator, settings.Interceptors);
        AddStreaming(method, serviceMethod, new ClientStreamingCallHandler<TService, TRequest, TResponse>(method, Descriptor(method), invoker, settings));
    }

    public override void AddMethod<TRequest, TResponse>(Method<TRequest, TResponse> method, DuplexStreamingServerMethod<TRequest, TResponse>? handler)
    {
        var serviceMethod = FindServiceMethod(method.Name, typeof(IAsyncStreamReader<TRequest>), typeof(IServerStreamWriter<TResponse>), typeof(ServerCallContext));
        var call = serviceMethod.CreateDelegate<Func<TService, IAsyncStreamReader<TRequest>, IServerStreamWriter<TResponse>, ServerCallContext, Task>>();
        var invoker = new DuplexStreamingMethodInvoker<TService, TRequest, TResponse>(call, settings.Activator, settings.Interceptors);
        AddStreaming(method, serviceMethod, new DuplexStreamingCallHandler<TService, TRequest, TResponse>(method, Descriptor(method), invoker, settings));
    }

    // docs/protocol.md section 10: .sse and .ndjson name a stream; .json and .pb stand for their codec's stream, and XML has none.
    private void AddStreaming<TRequest, TResponse>(
        Method<TRequest, TResponse> method,
        MethodInfo serviceMethod,
        StreamingCallHandler<TService, TRequest, TResponse> callHandler,
        Microsoft.AspNetCore.Http.RequestDelegate? grpcWebHandler = null)
        where TRequest : class
        where TResponse : class
    {
        Add(method, serviceMethod,
        [
            new(string.Empty, callHandler.HandlerFor(null)),
            Forcing(".sse", StreamMediaTypes.Events),
            Forcing(".ndjson", StreamMediaTypes.Lines),
            Forcing(".json", StreamMediaTypes.Lines),
            Forcing(".pb", StreamMediaTypes.Proto),
            new(".xml", callHandler.HandlerFor(null, suffixWithoutStream: ".xml")),
        ],
        settings.Options.EnableConnect ? callHandler.ConnectHandler : null,
        grpcWebHandler);

        // Before a stream starts, its errors are unary answers in the stream's codec.
        MethodRoute Forcing(string suffix, StreamMediaType type) =>
            new(suffix, callHandler.HandlerFor(type), MediaTypes.Canonical(type.Codec));
    }

    private void Add(
        IMethod method,
        MethodInfo serviceMethod,
        MethodRoute[] routes,
        Microsoft.AspNetCore.Http.RequestDelegate? connectHandler = null,
        Microsoft.AspNetCore.Http.RequestDelegate? grpcWebHandler = null)
    {
        var metadata = serviceMethod.GetCustomAttributes(inherit: true);
        Methods.Add(new BoundMethod(method.Name, Descriptor(method), metadata, routes, connectHandler, grpcWebHandler));
    }

    private Google.Protobuf.Reflection.MethodDescriptor Descriptor(IMethod method) =>
        service.Descriptor.FindMethodByName(method.Name)
        ?? throw new InvalidOperationException($"Method {method.FullName} is bound but not in {service.Descriptor.FullName}'s descriptor: regenerate the service.");

    private static MethodInfo FindServiceMethod(string name, params Type[] parameters) =>
        typeof(TService).GetMethod(name, BindingFlags.Public | BindingFlags.Instance, parameters)
        ?? throw new InvalidOperationException($"{typeof(TService).Name}.{name}({string.Join(", ", parameters.Select(p => p.Name))}) was not found.");
}
