using ProtoHttp.AspNetCore.Framing;
using ProtoHttp.AspNetCore.Invocation;

namespace ProtoHttp.AspNetCore.Pipeline;

/// <summary>A server-streaming method's core: one request message in, the service's messages out as a stream, then its last record.</summary>
internal sealed class ServerStreamingServerCallHandler<TService, TRequest, TResponse>(
    CallRoute route, ServerStreamingMethodInvoker<TService, TRequest, TResponse> invoker)
    : ServerCallHandler<TService, TRequest, TResponse>(route)
    where TService : class
    where TRequest : class
    where TResponse : class
{
    protected override async ValueTask HandleCallAsyncCore(ProtoHttpServerCallContext call)
    {
        var exchange = call.Exchange!;
        var request = await exchange.ReadMessageAsync(call, call.CancellationToken);
        var responses = exchange.OpenResponseStream(call);
        call.FromService = true;
        var running = invoker.Start((TRequest)request, new ResponseStreamWriter<TResponse>(responses, call.CancellationToken), call);
        try
        {
            // Waited for here, not in a method of the invoker's: an open stream keeps every state machine it waits in.
            // The deadline ends the stream on time even when the service ignores its token.
            await running.WaitAsync(call.CancellationToken);
        }
        catch (OperationCanceledException) when (!running.IsCompleted)
        {
            ServerStreamingMethodInvoker<TService, TRequest, TResponse>.Abandon(running);
            throw;
        }

        call.ServiceReturned();
        await responses.EndAsync(StreamOutcome.Ok(call.TrailersOrNull));
    }
}
