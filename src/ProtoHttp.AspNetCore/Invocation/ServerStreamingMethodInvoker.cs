using Grpc.Core;
using ProtoHttp.AspNetCore.Pipeline;

namespace ProtoHttp.AspNetCore.Invocation;

/// <summary>
/// Calls one server-streaming method of the service: its instance for the call and the interceptors around it (a
/// delegate chain built once, at startup). Knows no wire format and no deadline: the call handler reads the request
/// before, waits for the call within the deadline (<see cref="Abandon"/> when it passes first), and frames what the
/// service writes to its response stream. An open stream keeps every state machine it awaits in for as long as it is
/// open (W5's 10,000 subscribers, docs/benchmarks.md), so without interceptors or an instance to dispose the call is
/// the service's own task, with none of ProtoHttp's around it.
/// </summary>
internal sealed class ServerStreamingMethodInvoker<TService, TRequest, TResponse> : MethodInvokerBase<TService>
    where TService : class
    where TRequest : class
    where TResponse : class
{
    private readonly Func<TService, TRequest, IServerStreamWriter<TResponse>, ServerCallContext, Task> _method;

    // Null without interceptors: then the service is called directly.
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

    /// <summary>
    /// Starts the call: the task completes when the service (and every interceptor) has returned and its instance is
    /// released. A service that throws before its task fails that task.
    /// </summary>
    public Task Start(TRequest request, IServerStreamWriter<TResponse> responseStream, ProtoHttpServerCallContext context)
    {
        if (_pipeline is not null)
        {
            return _pipeline(request, responseStream, context);
        }

        var service = Activator.Create(context.HttpContext);
        Task call;
        try
        {
            call = _method(service.Instance, request, responseStream, context);
        }
        catch (Exception ex)
        {
            // Thrown before the service's task: released and rethrown as though its task had failed.
            return ReleaseWhenDoneAsync(Task.FromException(ex), service);
        }

        return service.NeedsRelease ? ReleaseWhenDoneAsync(call, service) : call;
    }

    /// <summary>
    /// The deadline (or the client going away) came before <paramref name="call"/> completed: the handler ends the
    /// stream at once, and the call runs on unobserved, releasing what it made when it completes.
    /// </summary>
    public static void Abandon(Task call) => FinishUnobserved(call, service: null);

    private static async Task ReleaseWhenDoneAsync(Task call, ServiceActivator<TService>.ServiceHandle service)
    {
        try
        {
            await call;
        }
        finally
        {
            await service.ReleaseAsync();
        }
    }

    // The innermost link: the service for this call, released when its task completes (deadline or not).
    private async Task CallServiceAsync(TRequest request, IServerStreamWriter<TResponse> responseStream, ServerCallContext context)
    {
        var service = Activator.Create(HttpContextOf(context));
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
