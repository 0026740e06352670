using Grpc.Core;
using ProtoHttp.AspNetCore.Pipeline;

namespace ProtoHttp.AspNetCore.Invocation;

/// <summary>
/// Calls one client-streaming method of the service: its instance for the call, the interceptors around it (a delegate
/// chain built once, at startup), the deadline, and the check that an answer came back. Knows no wire format: the call
/// handler hands it the request stream and writes the response after.
/// </summary>
internal sealed class ClientStreamingMethodInvoker<TService, TRequest, TResponse> : MethodInvokerBase<TService>
    where TService : class
    where TRequest : class
    where TResponse : class
{
    private readonly Func<TService, IAsyncStreamReader<TRequest>, ServerCallContext, Task<TResponse>> _method;
    private readonly string _methodName;
    private readonly ClientStreamingServerMethod<TRequest, TResponse> _pipeline;

    public ClientStreamingMethodInvoker(
        string methodName,
        Func<TService, IAsyncStreamReader<TRequest>, ServerCallContext, Task<TResponse>> method,
        ServiceActivator<TService> activator,
        IReadOnlyList<InterceptorActivator> interceptors)
        : base(activator, interceptors)
    {
        _methodName = methodName;
        _method = method;
        _pipeline = BuildPipeline<ClientStreamingServerMethod<TRequest, TResponse>>(CallServiceAsync, Link);
    }

    /// <summary>Calls the method within the context's deadline.</summary>
    /// <exception cref="NullResponseException">The service (or an interceptor) answered <see langword="null"/>.</exception>
    public async Task<TResponse> InvokeAsync(IAsyncStreamReader<TRequest> requestStream, ProtoHttpServerCallContext context) =>
        await WithinDeadlineAsync(_pipeline(requestStream, context), context.CancellationToken) ?? throw new NullResponseException(_methodName);

    // The innermost link: the service for this call, released when its task completes (deadline or not).
    private async Task<TResponse> CallServiceAsync(IAsyncStreamReader<TRequest> requestStream, ServerCallContext context)
    {
        var service = Activator.Create(HttpContextOf(context));
        try
        {
            return await _method(service.Instance, requestStream, context);
        }
        finally
        {
            await service.ReleaseAsync();
        }
    }

    private static ClientStreamingServerMethod<TRequest, TResponse> Link(InterceptorActivator interceptor, ClientStreamingServerMethod<TRequest, TResponse> next) =>
        async (requestStream, context) =>
        {
            var handle = interceptor.Create(HttpContextOf(context).RequestServices);
            try
            {
                return await handle.Instance.ClientStreamingServerHandler(requestStream, context, next);
            }
            finally
            {
                await handle.ReleaseAsync();
            }
        };
}
