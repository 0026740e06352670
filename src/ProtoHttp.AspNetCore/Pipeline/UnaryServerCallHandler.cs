using Google.Protobuf;
using ProtoHttp.AspNetCore.Invocation;

namespace ProtoHttp.AspNetCore.Pipeline;

/// <summary>A unary method's core: one request message in, one answer out, both in the protocol's spelling.</summary>
internal sealed class UnaryServerCallHandler<TService, TRequest, TResponse>(
    CallRoute route, UnaryMethodInvoker<TService, TRequest, TResponse> invoker)
    : ServerCallHandler<TService, TRequest, TResponse>(route)
    where TService : class
    where TRequest : class
    where TResponse : class
{
    protected override async ValueTask HandleCallAsyncCore(ProtoHttpServerCallContext call)
    {
        var request = await call.Exchange!.ReadMessageAsync(call, call.CancellationToken);
        call.FromService = true;
        var response = await invoker.InvokeAsync((TRequest)request, call);
        call.ServiceReturned();
        // Asked again: reading may have settled the answer's type, and the call moved to the exchange that knows it.
        await call.Exchange!.WriteMessageAsync(call, (IMessage)response);
    }
}
