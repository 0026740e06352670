using Grpc.Core;
using Microsoft.AspNetCore.Http;
using ProtoHttp.AspNetCore.Pipeline;

namespace ProtoHttp.AspNetCore.Invocation;

/// <summary>
/// What every kind of method invoker shares, knowing no wire format: the service instance for a call and its
/// release, the interceptor instances around it, the interceptor pipeline built once, and the deadline wait that
/// answers on time even when the service ignores its token. Each kind of method has its invoker derived from it, with its
/// own delegate type and its own <c>Interceptor</c> handler.
/// </summary>
internal abstract class MethodInvokerBase<TService>(ServiceActivator<TService> activator, IReadOnlyList<InterceptorActivator> interceptors)
    where TService : class
{
    protected ServiceActivator<TService> Activator { get; } = activator;

    protected IReadOnlyList<InterceptorActivator> Interceptors { get; } = interceptors;

    /// <summary>
    /// Chains the interceptors around <paramref name="inner"/> once, at startup: the first registered is built last,
    /// so it runs first. <paramref name="wrap"/> makes one link: it calls its interceptor with the next link.
    /// </summary>
    protected TDelegate BuildPipeline<TDelegate>(TDelegate inner, Func<InterceptorActivator, TDelegate, TDelegate> wrap)
    {
        var pipeline = inner;
        for (var i = Interceptors.Count - 1; i >= 0; i--)
        {
            pipeline = wrap(Interceptors[i], pipeline);
        }

        return pipeline;
    }

    /// <summary>
    /// The deadline (or the client going away) fired before <paramref name="call"/> completed: the caller answers at
    /// once, and the call runs on unobserved; <paramref name="service"/>, when given, is released when it completes.
    /// Invokers await <c>call.WaitAsync(token)</c> in their own async method and come here on its cancellation, so a
    /// call costs one state machine, not two.
    /// </summary>
    protected static void FinishUnobserved(Task call, ServiceActivator<TService>.ServiceHandle? service) =>
        _ = FinishUnobservedAsync(call, service);

    /// <summary>
    /// Awaits a call made through the pipeline within the context's deadline: when the deadline passes (or the client
    /// goes away) first, the caller answers at once and the call runs on unobserved, each link releasing its own instance.
    /// </summary>
    protected static async Task WithinDeadlineAsync(Task call, CancellationToken cancellationToken)
    {
        try
        {
            await call.WaitAsync(cancellationToken);
        }
        catch (OperationCanceledException) when (!call.IsCompleted)
        {
            FinishUnobserved(call, service: null);
            throw;
        }
    }

    /// <inheritdoc cref="WithinDeadlineAsync(Task, CancellationToken)"/>
    protected static async Task<T> WithinDeadlineAsync<T>(Task<T> call, CancellationToken cancellationToken)
    {
        try
        {
            return await call.WaitAsync(cancellationToken);
        }
        catch (OperationCanceledException) when (!call.IsCompleted)
        {
            FinishUnobserved(call, service: null);
            throw;
        }
    }

    /// <summary>The call's <see cref="HttpContext"/>, also when an interceptor passed its own context on to the next link.</summary>
    protected static HttpContext HttpContextOf(ServerCallContext context) =>
        context as ProtoHttpServerCallContext is { } own
            ? own.HttpContext
            : context.UserState.TryGetValue(ProtoHttpServerCallContext.HttpContextKey, out var value) && value is HttpContext httpContext
                ? httpContext
                : throw new InvalidOperationException(
                    "An interceptor passed on a ServerCallContext that does not lead to the call's HttpContext; pass on the context it was given, " +
                    $"or one whose UserState holds it under \"{ProtoHttpServerCallContext.HttpContextKey}\".");

    private static async Task FinishUnobservedAsync(Task call, ServiceActivator<TService>.ServiceHandle? service)
    {
        try
        {
            await call;
        }
        catch
        {
            // The client already has its answer; what the service did after the deadline is no longer anyone's answer.
        }

        if (service is { } handle)
        {
            await handle.ReleaseAsync();
        }
    }
}
