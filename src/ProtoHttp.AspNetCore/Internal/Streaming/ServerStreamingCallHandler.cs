using Google.Protobuf.Reflection;
using Grpc.Core;
using Microsoft.AspNetCore.Http;
using ProtoHttp.Streaming;

namespace ProtoHttp.AspNetCore.Internal.Streaming;

/// <summary>
/// Serves a server-streaming method: the request as for a unary call (a body in any format, or GET with the query
/// string) or as one envelope; the response a stream of the service's messages.
/// </summary>
internal sealed class ServerStreamingCallHandler<TService, TRequest, TResponse>(
    Method<TRequest, TResponse> method,
    MethodDescriptor descriptor,
    ServerStreamingMethodInvoker<TService, TRequest, TResponse> invoker,
    ServiceCallSettings<TService> settings)
    : StreamingCallHandler<TService, TRequest, TResponse>(method, descriptor, settings)
    where TService : class
    where TRequest : class
    where TResponse : class
{
    private readonly MessageRequestReader _requestReader = new(
        descriptor.InputType, settings.Codecs, settings.Options.MaxRequestBodySize, settings.InPlaceBodyLimit);

    private readonly bool _getAllowed = GetVerbPolicy.Allows(descriptor, settings.RestrictGet);

    protected override bool ReadsRequestStream => false;

    protected override StreamRequestPlan PlanRequest(HttpRequest request)
    {
        if (HttpMethods.IsGet(request.Method) && _getAllowed)
        {
            // A browser's address bar must show the stream as text it can read as it comes: events, not a download.
            var stream = AcceptsHtml(request) ? Settings.Streams.Events : Settings.Streams.Lines;
            return new StreamRequestPlan(IsGet: true, _requestReader.ForQuery().Reader, Envelope: null, stream);
        }

        if (!HttpMethods.IsPost(request.Method))
        {
            throw MethodNotAllowed(request.Method, _getAllowed ? "GET, POST" : "POST");
        }

        if (Settings.Streams.EnvelopeType(request.ContentType, Settings.Codecs) is { } envelope)
        {
            return new StreamRequestPlan(IsGet: false, envelope.Codec, envelope, envelope);
        }

        // A body in a Connect codec asks for that codec's envelopes; any other, for lines.
        var (reader, own) = _requestReader.ForBody(request);
        return new StreamRequestPlan(IsGet: false, reader, Envelope: null, own.IsConnectCodec && own != Settings.Streams.Lines.Codec ? Settings.Streams.Envelopes(own) : Settings.Streams.Lines);
    }

    protected override async ValueTask<TRequest?> ReadRequestAsync(HttpContext context, StreamRequestPlan plan, CancellationToken cancellationToken)
    {
        var message = plan.IsGet
            ? _requestReader.ReadQuery(context.Request, plan.Reader)
            : plan.Envelope is null
                ? await _requestReader.ReadBodyAsync(context, plan.Reader, cancellationToken)
                : await SingleEnvelope.ReadAsync(context, plan, Descriptor.InputType, Settings, cancellationToken);
        Settings.Codecs.CheckRequiredFields(message);
        return (TRequest)message;
    }

    protected override Task InvokeAsync(
        TRequest? request, EnvelopeStreamReader<TRequest>? requestStream, StreamResponseWriter response, ProtoHttpServerCallContext context) =>
        invoker.InvokeAsync(request!, new ResponseStreamWriter<TResponse>(response, context.CancellationToken), context);

    private static bool AcceptsHtml(HttpRequest request)
    {
        foreach (var value in request.Headers.Accept)
        {
            if (value is not null && value.Contains("text/html", StringComparison.OrdinalIgnoreCase))
            {
                return true;
            }
        }

        return false;
    }
}
