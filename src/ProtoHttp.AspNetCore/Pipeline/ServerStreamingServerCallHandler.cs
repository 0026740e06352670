using ProtoHttp.AspNetCore.Internal;
using ProtoHttp.AspNetCore.Internal.Streaming;
using ProtoHttp.Streaming;

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
        var protocol = Route.Protocol;
        var request = await protocol.ReadMessageAsync(call, call.CancellationToken);
        var responses = call.ResponseStream ??= protocol.OpenResponseStream(call);
        call.FromService = true;
        await invoker.InvokeAsync((TRequest)request, new ResponseStreamWriter<TResponse>(responses, call.CancellationToken), call);
        call.ServiceReturned();
        await responses.EndAsync(StreamOutcome.Ok(call.TrailersOrNull));
    }
}
