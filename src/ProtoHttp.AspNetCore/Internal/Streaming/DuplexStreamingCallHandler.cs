using Google.Protobuf.Reflection;
using Grpc.Core;
using Microsoft.AspNetCore.Http;

namespace ProtoHttp.AspNetCore.Internal.Streaming;

/// <summary>
/// Serves a bidirectional method: requests as envelopes the service reads as they arrive while it writes its responses
/// in the stream format. Only HTTP/2 and later carry both directions at once; over HTTP/1.1 the answer is 505.
/// </summary>
internal sealed class DuplexStreamingCallHandler<TService, TRequest, TResponse>(
    Method<TRequest, TResponse> method,
    MethodDescriptor descriptor,
    DuplexStreamingMethodInvoker<TService, TRequest, TResponse> invoker,
    ServiceCallSettings<TService> settings)
    : StreamingCallHandler<TService, TRequest, TResponse>(method, descriptor, settings)
    where TService : class
    where TRequest : class
    where TResponse : class
{
    protected override bool ReadsRequestStream => true;

    protected override StreamRequestPlan PlanRequest(HttpRequest request)
    {
        if (HttpMethods.IsPost(request.Method) && !(HttpProtocol.IsHttp2(request.Protocol) || HttpProtocol.IsHttp3(request.Protocol)))
        {
            throw new CallRejectedException(StatusCodes.Status505HttpVersionNotsupported, StatusCode.Unimplemented,
                $"Method '{Method.Name}' is bidirectional and needs HTTP/2, where requests and responses flow at once; this request came over {request.Protocol}.");
        }

        return RequestStreamPlan.For(request, Settings.Codecs, Settings.Streams);
    }

    protected override ValueTask<TRequest?> ReadRequestAsync(HttpContext context, StreamRequestPlan plan, CancellationToken cancellationToken)
    {
        RequestStreamPlan.LiftBodyLimits(context);
        return ValueTask.FromResult<TRequest?>(null);
    }

    protected override Task InvokeAsync(
        TRequest? request, EnvelopeStreamReader<TRequest>? requestStream, StreamResponseWriter response, ProtoHttpServerCallContext context) =>
        invoker.InvokeAsync(requestStream!, new ResponseStreamWriter<TResponse>(response, context.CancellationToken), context);
}
