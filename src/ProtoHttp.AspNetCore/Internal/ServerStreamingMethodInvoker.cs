using System.Runtime.ExceptionServices;
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

    // Null without interceptors: then the service's task is awaited directly, in one state machine instead of two. An
    // open stream keeps its state machines for as long as it is open (W5's subscribers, docs/benchmarks.md).
    private readonly ServerStreamingServerMethod<TRequest, TResponse>? _pipeline;

    public ServerStreamingMethodInvoker(
        Func<TService, TRequest, IServerStreamWriter<TResponse>, ServerCallContext, Task> method,
        ServiceActivator<TService> activator,
        IReadOnlyList<InterceptorActivator> interceptors)
        : base(activator, interceptors)
    {
        _method = method;
        _pipeline = interceptors.Count == 0 ? null : BuildPipeline<ServerStreamingServerMethod<TRequest, TResponse>>(CallServiceAsync, Link);
    }

    /// <summary>Calls the method within the context's deadline.</summary>
    public Task InvokeAsync(TRequest request, IServerStreamWriter<TResponse> responseStream, ProtoHttpServerCallContext context) =>
        _pipeline is null
            ? InvokeServiceAsync(request, responseStream, context)
            : WithinDeadlineAsync(_pipeline(request, responseStream, context), context.CancellationToken);

    private Task InvokeServiceAsync(TRequest request, IServerStreamWriter<TResponse> responseStream, ProtoHttpServerCallContext context)
    {
        var service = Activator.Create(context.HttpContext.RequestServices);
        Task call;
        try
        {
            call = _method(service.Instance, request, responseStream, context);
        }
        catch (Exception ex)
        {
            return ReleaseAndRethrowAsync(service, ExceptionDispatchInfo.Capture(ex));
        }

        return WaitForServiceAsync(call, service, context.CancellationToken);
    }

    // A state machine of its own, with only what the wait needs: an open stream keeps it for as long as it is open.
    private static async Task WaitForServiceAsync(Task call, ServiceActivator<TService>.ServiceHandle service, CancellationToken cancellationToken)
    {
        var releaseLater = false;
        try
        {
            // The deadline ends the stream on time even when the service ignores its token.
            await call.WaitAsync(cancellationToken);
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

    private static async Task ReleaseAndRethrowAsync(ServiceActivator<TService>.ServiceHandle service, ExceptionDispatchInfo failure)
    {
        await service.ReleaseAsync();
        failure.Throw();
    }

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
