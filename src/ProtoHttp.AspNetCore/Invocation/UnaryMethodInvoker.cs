using Grpc.Core;
using ProtoHttp.AspNetCore.Pipeline;

namespace ProtoHttp.AspNetCore.Invocation;

/// <summary>
/// Calls one unary method of the service: its instance for the call, the interceptors around it (a delegate chain
/// built once, at startup), the deadline, and the check that an answer came back. Knows no wire format: the call
/// handler reads the request before and writes the response after.
/// </summary>
internal sealed class UnaryMethodInvoker<TService, TRequest, TResponse> : MethodInvokerBase<TService>
    where TService : class
    where TRequest : class
    where TResponse : class
{
    private readonly Func<TService, TRequest, ServerCallContext, Task<TResponse>> _method;
    private readonly string _methodName;

    // Null without interceptors: then the service's task is awaited directly, with nothing more allocated per call.
    private readonly UnaryServerMethod<TRequest, TResponse>? _pipeline;

    public UnaryMethodInvoker(
        string methodName,
        Func<TService, TRequest, ServerCallContext, Task<TResponse>> method,
        ServiceActivator<TService> activator,
        IReadOnlyList<InterceptorActivator> interceptors)
        : base(activator, interceptors)
    {
        _methodName = methodName;
        _method = method;
        _pipeline = interceptors.Count == 0 ? null : BuildPipeline<UnaryServerMethod<TRequest, TResponse>>(CallServiceAsync, Link);
    }

    /// <summary>Calls the method within the context's deadline.</summary>
    /// <exception cref="NullResponseException">The service (or an interceptor) answered <see langword="null"/>.</exception>
    public ValueTask<TResponse> InvokeAsync(TRequest request, ProtoHttpServerCallContext context) =>
        _pipeline is null ? InvokeServiceAsync(request, context) : InvokePipelineAsync(_pipeline, request, context);

    private async ValueTask<TResponse> InvokeServiceAsync(TRequest request, ProtoHttpServerCallContext context)
    {
        var service = Activator.Create(context.HttpContext);
        Task<TResponse> call;
        try
        {
            call = _method(service.Instance, request, context);
        }
        catch
        {
            await service.ReleaseAsync();
            throw;
        }

        var releaseLater = false;
        try
        {
            // The deadline answers 504 on time even when the service ignores its token.
            return await call.WaitAsync(context.CancellationToken) ?? throw new NullResponseException(_methodName);
        }
        catch (OperationCanceledException) when (!call.IsCompleted)
        {
            releaseLater = true;
            FinishUnobserved(call, service);
            throw;
        }
        finally
        {
            if (!releaseLater)
            {
                await service.ReleaseAsync();
            }
        }
    }

    private async ValueTask<TResponse> InvokePipelineAsync(UnaryServerMethod<TRequest, TResponse> pipeline, TRequest request, ProtoHttpServerCallContext context)
    {
        // Each link releases its own interceptor and the innermost the service, when the call completes.
        var call = pipeline(request, context);
        try
        {
            return await call.WaitAsync(context.CancellationToken) ?? throw new NullResponseException(_methodName);
        }
        catch (OperationCanceledException) when (!call.IsCompleted)
        {
            FinishUnobserved(call, service: null);
            throw;
        }
    }

    // The innermost link: the service for this call, released when its task completes (deadline or not).
    private async Task<TResponse> CallServiceAsync(TRequest request, ServerCallContext context)
    {
        var service = Activator.Create(HttpContextOf(context));
        try
        {
            return await _method(service.Instance, request, context);
        }
        finally
        {
            await service.ReleaseAsync();
        }
    }

    private static UnaryServerMethod<TRequest, TResponse> Link(InterceptorActivator interceptor, UnaryServerMethod<TRequest, TResponse> next) =>
        async (request, context) =>
        {
            var handle = interceptor.Create(HttpContextOf(context).RequestServices);
            try
            {
                return await handle.Instance.UnaryServerHandler(request, context, next);
            }
            finally
            {
                await handle.ReleaseAsync();
            }
        };
}
