using Google.Protobuf;
using Google.Protobuf.Reflection;
using Grpc.Core;
using Microsoft.AspNetCore.Http;
using ProtoHttp.AspNetCore.Internal;
using ProtoHttp.AspNetCore.Internal.Streaming;
using ProtoHttp.AspNetCore.Telemetry;

namespace ProtoHttp.AspNetCore.GrpcWeb;

/// <summary>
/// Serves one unary or server-streaming method in gRPC-Web at <c>/{package.Service}/{Method}</c> (docs/protocol.md,
/// gRPC-Web): a POST of one message frame in a gRPC-Web type, answered 200 with a frame per response message and the
/// trailers frame last, whatever the outcome. Only a wrong verb (405) or a type this server has no codec for (415) is
/// refused by HTTP status, with <c>grpc-status</c> and <c>grpc-message</c> as headers. The service is called through the
/// same invokers (interceptors, activation, deadline) as on the other protocols, and failures are decided by the same
/// <see cref="CallErrors"/>.
/// </summary>
internal sealed class GrpcWebCallHandler<TService, TRequest, TResponse>
    where TService : class
    where TRequest : class
    where TResponse : class
{
    /// <summary><c>rpc.system</c> of gRPC-Web calls: OpenTelemetry names gRPC, over any transport, <c>grpc</c>.</summary>
    public const string TelemetrySystem = "grpc";

    private readonly Method<TRequest, TResponse> _method;
    private readonly MessageDescriptor _requestDescriptor;
    private readonly ServiceCallSettings<TService> _settings;
    private readonly Func<TRequest, GrpcWebResponseWriter, ProtoHttpServerCallContext, Task<IMessage?>> _invoke;

    private GrpcWebCallHandler(
        Method<TRequest, TResponse> method,
        MethodDescriptor descriptor,
        ServiceCallSettings<TService> settings,
        Func<TRequest, GrpcWebResponseWriter, ProtoHttpServerCallContext, Task<IMessage?>> invoke)
    {
        _method = method;
        _requestDescriptor = descriptor.InputType;
        _settings = settings;
        _invoke = invoke;
    }

    /// <summary>A unary method: its one answer goes out with the trailers, in one write.</summary>
    public static GrpcWebCallHandler<TService, TRequest, TResponse> ForUnary(
        Method<TRequest, TResponse> method, MethodDescriptor descriptor, UnaryMethodInvoker<TService, TRequest, TResponse> invoker, ServiceCallSettings<TService> settings) =>
        new(method, descriptor, settings, async (request, _, context) => (IMessage)await invoker.InvokeAsync(request, context));

    /// <summary>A server-streaming method: each message the service writes goes out as it comes.</summary>
    public static GrpcWebCallHandler<TService, TRequest, TResponse> ForServerStreaming(
        Method<TRequest, TResponse> method,
        MethodDescriptor descriptor,
        ServerStreamingMethodInvoker<TService, TRequest, TResponse> invoker,
        ServiceCallSettings<TService> settings) =>
        new(method, descriptor, settings, async (request, response, context) =>
        {
            await invoker.InvokeAsync(request, new GrpcWebStreamWriter<TResponse>(response, context.CancellationToken), context);
            return null;
        });

    public async Task HandleCallAsync(HttpContext context)
    {
        var settings = _settings;
        var failure = new CallFailureInfo(_method.Name, settings.Logger, settings.Codecs, settings.DetailedErrors, settings.Options.MaxRequestBodySize,
            ErrorType: null);
        CallDeadline? deadline = null;
        ProtoHttpServerCallContext? callContext = null;
        GrpcWebResponseWriter? response = null;
        var telemetry = CallTelemetry.Start(context, TelemetrySystem, _method);
        var code = StatusCode.OK;
        try
        {
            var request = context.Request;
            if (!HttpMethods.IsPost(request.Method))
            {
                throw CallRejectedException.MethodNotAllowed(request.Method, "POST");
            }

            if (GrpcWebMediaTypes.Parse(request.ContentType) is not { } type
                || settings.Codecs.Reader(type.Codec) is not { } reader
                || settings.Codecs.Writer(type.Codec) is not { } writer)
            {
                throw new CallRejectedException(StatusCodes.Status415UnsupportedMediaType, StatusCode.InvalidArgument,
                    $"The Content-Type '{request.ContentType}' is not a gRPC-Web type this service reads; use {GrpcWebMediaTypes.AcceptPost}.")
                {
                    Hint = new("Accept-Post", GrpcWebMediaTypes.AcceptPost),
                };
            }

            ProtoHttpLog.FormatChosen(settings.Logger, _method.Name, type.Codec, type.ContentType);
            response = new GrpcWebResponseWriter(context, type, writer);
            var timeout = GrpcTimeout.Parse(request.Headers[GrpcTimeout.HeaderName]);
            deadline = CallDeadline.Start(context, timeout, streaming: _method.Type != MethodType.Unary);
            failure = failure with { Timeout = deadline.Timeout };
            var cancellationToken = deadline.Token;

            var message = await GrpcWebRequestReader.ReadAsync(context, type, reader, _requestDescriptor, settings.Options.MaxRequestBodySize,
                settings.InPlaceBodyLimit, cancellationToken);
            settings.Codecs.CheckRequiredFields(message);

            callContext = new ProtoHttpServerCallContext(context, _method.FullName, deadline.Utc, cancellationToken);
            failure = failure with { FromService = true };
            var answer = await _invoke((TRequest)message, response, callContext);
            failure = failure with { FromService = false };
            if (callContext.Status.StatusCode != StatusCode.OK)
            {
                throw new RpcException(callContext.Status);
            }

            await response.EndAsync(StatusCode.OK, string.Empty, callContext.HasResponseTrailers ? callContext.ResponseTrailers : null, answer);
        }
        catch (Exception ex)
        {
            failure = failure with { DeadlineExpired = deadline?.Expired ?? false };
            code = await FailAsync(context, ex, failure, response, callContext);
        }
        finally
        {
            telemetry.Stop(code);
            if (response is not null)
            {
                await response.DisposeAsync();
            }

            deadline?.Dispose();
        }
    }

    /// <returns>The status the call ended with (<c>Cancelled</c> when the client went away).</returns>
    private static async Task<StatusCode> FailAsync(
        HttpContext context, Exception exception, CallFailureInfo failure, GrpcWebResponseWriter? response, ProtoHttpServerCallContext? callContext)
    {
        if (CallErrors.Decide(exception, failure, context.RequestAborted.IsCancellationRequested) is not { } decided)
        {
            return StatusCode.Cancelled; // The client went away: nobody is left to tell.
        }

        var text = PrintableText.EscapeLoneSurrogates(decided.Text);
        if (response is null)
        {
            // Refused before the call is gRPC-Web at all (verb, media type): an HTTP status, the reason as headers.
            var refusal = context.Response;
            refusal.StatusCode = decided.HttpStatus;
            if (decided.Hint is { } hint)
            {
                refusal.Headers[hint.Key] = hint.Value;
            }

            refusal.Headers[GrpcWebTrailers.StatusName] = ((int)decided.Code).ToString(System.Globalization.CultureInfo.InvariantCulture);
            refusal.Headers[GrpcWebTrailers.MessageName] = GrpcWebTrailers.PercentEncode(text);
            return decided.Code;
        }

        var trailers = Merge(callContext is { HasResponseTrailers: true } ? callContext.ResponseTrailers : null, decided.Trailers);
        try
        {
            await response.EndAsync(decided.Code, text, trailers);
        }
        catch (Exception ex) when (context.RequestAborted.IsCancellationRequested && ex is OperationCanceledException or IOException)
        {
            // The client left while the trailers were on their way.
        }

        return decided.Code;
    }

    private static Metadata? Merge(Metadata? first, Metadata? second)
    {
        if (first is not { Count: > 0 } || second is not { Count: > 0 })
        {
            return first is { Count: > 0 } ? first : second;
        }

        var merged = new Metadata();
        foreach (var entry in first.Concat(second))
        {
            merged.Add(entry);
        }

        return merged;
    }
}
