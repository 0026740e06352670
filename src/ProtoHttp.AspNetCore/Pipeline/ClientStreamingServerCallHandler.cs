using Google.Protobuf;
using ProtoHttp.AspNetCore.Framing;
using ProtoHttp.AspNetCore.Invocation;

namespace ProtoHttp.AspNetCore.Pipeline;

/// <summary>
/// A client-streaming method's core: the requests the service reads as they arrive, its one answer in the
/// stream's framing, then the last record.
/// </summary>
internal sealed class ClientStreamingServerCallHandler<TService, TRequest, TResponse>(
    CallRoute route, ClientStreamingMethodInvoker<TService, TRequest, TResponse> invoker)
    : ServerCallHandler<TService, TRequest, TResponse>(route)
    where TService : class
    where TRequest : class
    where TResponse : class
{
    protected override async ValueTask HandleCallAsyncCore(ProtoHttpServerCallContext call)
    {
        var exchange = call.Exchange!;
        var requests = exchange.OpenRequestStream<TRequest>(call);
        var responses = exchange.OpenResponseStream(call);
        call.FromService = true;
        var answer = await invoker.InvokeAsync(requests, call);
        await responses.WriteMessageAsync((IMessage)answer, call.CancellationToken);
        call.ServiceReturned();
        await responses.EndAsync(StreamOutcome.Ok(call.TrailersOrNull));
    }
}
