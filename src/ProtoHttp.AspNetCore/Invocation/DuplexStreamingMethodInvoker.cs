using Grpc.Core;
using ProtoHttp.AspNetCore.Pipeline;

namespace ProtoHttp.AspNetCore.Invocation;

/// <summary>
/// Calls one bidirectional method of the service: its instance for the call, the interceptors around it (a delegate
/// chain built once, at startup) and the deadline. Knows no wire format: the call handler hands it the request stream
/// and frames what the service writes to its response stream.
/// </summary>
internal sealed class DuplexStreamingMethodInvoker<TService, TRequest, TResponse> : MethodInvokerBase<TService>
    where TService : class
    where TRequest : class
    where TResponse : class
{
    private readonly Func<TService, IAsyncStreamReader<TRequest>, IServerStreamWriter<TResponse>, ServerCallContext, Task> _method;
    private readonly DuplexStreamingServerMethod<TRequest, TResponse> _pipeline;

    public DuplexStreamingMethodInvoker(
        Func<TService, IAsyncStreamReader<TRequest>, IServerStreamWriter<TResponse>, ServerCallContext, Task> method,
        ServiceActivator<TService> activator,
        IReadOnlyList<InterceptorActivator> interceptors)
        : base(activator, interceptors)
    {
        _method = method;
        _pipeline = BuildPipeline<DuplexStreamingServerMethod<TRequest, TResponse>>(CallServiceAsync, Link);
    }

    /// <summary>Calls the method within the context's deadline.</summary>
    public Task InvokeAsync(IAsyncStreamReader<TRequest> requestStream, IServerStreamWriter<TResponse> responseStream, ProtoHttpServerCallContext context) =>
        WithinDeadlineAsync(_pipeline(requestStream, responseStream, context), context.CancellationToken);

    // The innermost link: the service for this call, released when its task completes (deadline or not).
    private async Task CallServiceAsync(IAsyncStreamReader<TRequest> requestStream, IServerStreamWriter<TResponse> responseStream, ServerCallContext context)
    {
        var service = Activator.Create(HttpContextOf(context));
        try
        {
            await _method(service.Instance, requestStream, responseStream, context);
        }
        finally
        {
            await service.ReleaseAsync();
        }
    }

    private static DuplexStreamingServerMethod<TRequest, TResponse> Link(InterceptorActivator interceptor, DuplexStreamingServerMethod<TRequest, TResponse> next) =>
        async (requestStream, responseStream, context) =>
        {
            var handle = interceptor.Create(HttpContextOf(context).RequestServices);
            try
            {
                await handle.Instance.DuplexStreamingServerHandler(requestStream, responseStream, context, next);
            }
            finally
            {
                await handle.ReleaseAsync();
            }
        };
}
