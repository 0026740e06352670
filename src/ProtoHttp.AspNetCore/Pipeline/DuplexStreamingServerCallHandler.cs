using Grpc.Core;
using Microsoft.AspNetCore.Http;
using ProtoHttp.AspNetCore.Framing;
using ProtoHttp.AspNetCore.Internal;
using ProtoHttp.AspNetCore.Invocation;

namespace ProtoHttp.AspNetCore.Pipeline;

/// <summary>
/// A bidirectional method's core: requests the service reads as they arrive while it writes its answers
/// as a stream. Only HTTP/2 and later carry a request body and its answer at once; a POST over HTTP/1.1 is answered 505,
/// in every protocol (a WebSocket, which is no POST, carries both directions over HTTP/1.1 too).
/// </summary>
internal sealed class DuplexStreamingServerCallHandler<TService, TRequest, TResponse>(
    CallRoute route, DuplexStreamingMethodInvoker<TService, TRequest, TResponse> invoker)
    : ServerCallHandler<TService, TRequest, TResponse>(route)
    where TService : class
    where TRequest : class
    where TResponse : class
{
    protected override void CheckTransport(HttpRequest request)
    {
        if (HttpMethods.IsPost(request.Method) && !(HttpProtocol.IsHttp2(request.Protocol) || HttpProtocol.IsHttp3(request.Protocol)))
        {
            throw new CallRejectedException(StatusCodes.Status505HttpVersionNotsupported, StatusCode.Unimplemented,
                $"Method '{Route.Method.Name}' is bidirectional and needs HTTP/2, where requests and responses flow at once; this request came over {request.Protocol}.");
        }
    }

    protected override async ValueTask HandleCallAsyncCore(ProtoHttpServerCallContext call)
    {
        var exchange = call.Exchange!;
        var requests = exchange.OpenRequestStream<TRequest>(call);
        var responses = exchange.OpenResponseStream(call);
        call.FromService = true;
        await invoker.InvokeAsync(requests, new ResponseStreamWriter<TResponse>(responses, call.CancellationToken), call);
        call.ServiceReturned();
        await responses.EndAsync(StreamOutcome.Ok(call.TrailersOrNull));
    }
}
