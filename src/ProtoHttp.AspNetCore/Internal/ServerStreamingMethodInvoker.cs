using Grpc.Core;
using ProtoHttp.AspNetCore.Pipeline;

namespace ProtoHttp.AspNetCore.Internal;

/// <summary>
/// Calls one server-streaming method of the service: its instance for the call, the interceptors around it (a delegate
/// chain built once, at startup) and the deadline. Knows no wire format: the call handler reads the request before and
/// frames what the service writes to its response stream.
/// </summary>
internal sealed class ServerStreamingMethodInvoker<TService, TRequest, TResponse> : MethodInvokerBase<TService>
    where TService : class
    where TRequest : class
    where TResponse : class
{
    private readonly Func<TService, TRequest, IServerStreamWriter<TResponse>, ServerCallContext, Task> _method;
    private readonly ServerStreamingServerMethod<TRequest, TResponse> _pipeline;

    public ServerStreamingMethodInvoker(
        Func<TService, TRequest, IServerStreamWriter<TResponse>, ServerCallContext, Task> method,
        ServiceActivator<TService> activator,
        IReadOnlyList<InterceptorActivator> interceptors)
        : base(activator, interceptors)
    {
        _method = method;
        _pipeline = BuildPipeline<ServerStreamingServerMethod<TRequest, TResponse>>(CallServiceAsync, Link);
    }

    /// <summary>Calls the method within the context's deadline.</summary>
    public Task InvokeAsync(TRequest request, IServerStreamWriter<TResponse> responseStream, ProtoHttpServerCallContext context) =>
        WithinDeadlineAsync(_pipeline(request, responseStream, context), context.CancellationToken);

    // The innermost link: the service for this call, released when its task completes (deadline or not).
    private async Task CallServiceAsync(TRequest request, IServerStreamWriter<TResponse> responseStream, ServerCallContext context)
    {
        var service = Activator.Create(HttpContextOf(context).RequestServices);
        try
        {
            await _method(service.Instance, request, responseStream, context);
        }
        finally
        {
            await service.ReleaseAsync();
        }
    }

    private static ServerStreamingServerMethod<TRequest, TResponse> Link(InterceptorActivator interceptor, ServerStreamingServerMethod<TRequest, TResponse> next) =>
        async (request, responseStream, context) =>
        {
            var handle = interceptor.Create(HttpContextOf(context).RequestServices);
            try
            {
                await handle.Instance.ServerStreamingServerHandler(request, responseStream, context, next);
            }
            finally
            {
                await handle.ReleaseAsync();
            }
        };
}
