using Grpc.Core;
using Microsoft.AspNetCore.Http;
using ProtoHttp.AspNetCore.Internal;

namespace ProtoHttp.AspNetCore.Pipeline;

/// <summary>
/// The call lifecycle, written once for every protocol and method kind, as grpc-dotnet's <c>ServerCallHandlerBase</c>:
/// the per-call object and its telemetry, the verb, the protocol's check of the request and the format it chose (once
/// for every protocol), the deadline, the kind's core (read, invoke, write), the error funnel, and the end of the call.
/// Each method kind supplies <see cref="HandleCallAsyncCore"/>; each protocol (<see cref="CallRoute.Protocol"/>) the
/// call's exchange (<see cref="CallExchange"/>), which reads and writes.
/// </summary>
internal abstract class ServerCallHandler<TService, TRequest, TResponse>(CallRoute route)
    where TService : class
    where TRequest : class
    where TResponse : class
{
    protected CallRoute Route => route;

    /// <summary>Serves one call on the route's endpoint.</summary>
    public Task HandleCallAsync(HttpContext httpContext)
    {
        var call = new ProtoHttpServerCallContext(httpContext, route);
        call.StartTelemetry();
        ValueTask core;
        try
        {
            var request = httpContext.Request;
            CheckTransport(request);
            var protocol = route.Protocol;
            protocol.CheckVerb(request, route);
            var exchange = call.Exchange = protocol.Accept(call);
            if ((exchange.ResponseType?.ContentType ?? exchange.ResponseStreamType?.ContentType) is { } answer)
            {
                ProtoHttpLog.FormatChosen(route.Settings.Logger, route.Method.Name, exchange.RequestReader?.Name, answer);
            }

            exchange.Begin(call);
            call.StartDeadline(protocol.ReadTimeout(request));
            core = HandleCallAsyncCore(call);
        }
        catch (Exception ex)
        {
            return FailAsync(call, ex);
        }

        if (!core.IsCompletedSuccessfully)
        {
            return AwaitCoreAsync(call, core);
        }

        // A call that completed without waiting (the common small unary call) costs no second state machine.
        core.GetAwaiter().GetResult();
        var end = call.EndAsync(StatusCode.OK);
        return end.IsCompletedSuccessfully ? Task.CompletedTask : end.AsTask();
    }

    /// <summary>Reads the request, calls the service through its invoker, and writes what it answers.</summary>
    protected abstract ValueTask HandleCallAsyncCore(ProtoHttpServerCallContext call);

    /// <summary>Refuses a request the method kind cannot be served over, whatever the protocol (a bidirectional call over HTTP/1.1).</summary>
    /// <exception cref="Internal.CallRejectedException">The transport cannot carry the call.</exception>
    protected virtual void CheckTransport(HttpRequest request)
    {
    }

    private static async Task AwaitCoreAsync(ProtoHttpServerCallContext call, ValueTask core)
    {
        var code = StatusCode.OK;
        try
        {
            await core;
        }
        catch (Exception ex)
        {
            code = await CallErrors.FailAsync(call, ex);
        }
        finally
        {
            await call.EndAsync(code);
        }
    }

    private static async Task FailAsync(ProtoHttpServerCallContext call, Exception exception)
    {
        var code = StatusCode.OK;
        try
        {
            code = await CallErrors.FailAsync(call, exception);
        }
        finally
        {
            await call.EndAsync(code);
        }
    }
}
