using Google.Protobuf;
using Google.Protobuf.Reflection;
using Grpc.Core;
using Microsoft.AspNetCore.Http;

namespace ProtoHttp.AspNetCore.Internal.Streaming;

/// <summary>
/// Serves a client-streaming method: the requests as envelopes the service reads as they arrive, the one response in
/// the stream format, followed by the last record.
/// </summary>
internal sealed class ClientStreamingCallHandler<TService, TRequest, TResponse>(
    Method<TRequest, TResponse> method,
    MethodDescriptor descriptor,
    ClientStreamingMethodInvoker<TService, TRequest, TResponse> invoker,
    ServiceCallSettings<TService> settings)
    : StreamingCallHandler<TService, TRequest, TResponse>(method, descriptor, settings)
    where TService : class
    where TRequest : class
    where TResponse : class
{
    protected override bool ReadsRequestStream => true;

    protected override StreamRequestPlan PlanRequest(HttpRequest request) => RequestStreamPlan.For(request, Settings.Codecs, Settings.Streams);

    protected override ValueTask<TRequest?> ReadRequestAsync(HttpContext context, StreamRequestPlan plan, CancellationToken cancellationToken)
    {
        RequestStreamPlan.LiftBodyLimits(context);
        return ValueTask.FromResult<TRequest?>(null);
    }

    protected override async Task InvokeAsync(
        TRequest? request, EnvelopeStreamReader<TRequest>? requestStream, StreamResponseWriter response, ProtoHttpServerCallContext context)
    {
        var answer = await invoker.InvokeAsync(requestStream!, context);
        await response.WriteMessageAsync((IMessage)answer, context.CancellationToken);
    }
}
