using Google.Protobuf;
using Google.Protobuf.Reflection;
using Grpc.Core;
using Microsoft.AspNetCore.Http;
using ProtoHttp.AspNetCore.Telemetry;

namespace ProtoHttp.AspNetCore.Internal;

/// <summary>
/// Serves one unary method over HTTP: checks the verb and media types, reads the request in its format, calls the
/// service through its <see cref="UnaryMethodInvoker{TService, TRequest, TResponse}"/> with a <see cref="ServerCallContext"/>,
/// and writes the response in the negotiated format. Every failure goes through <see cref="CallErrors"/>, told whether
/// it came out of the invoker (the app's code: the service and its interceptors) or out of ProtoHttp's own pipeline.
/// </summary>
internal sealed class UnaryCallHandler<TService, TRequest, TResponse>(
    Method<TRequest, TResponse> method,
    MethodDescriptor descriptor,
    UnaryMethodInvoker<TService, TRequest, TResponse> invoker,
    ServiceCallSettings<TService> settings)
    where TService : class
    where TRequest : class
    where TResponse : class
{
    private readonly MessageRequestReader _requestReader = new(
        descriptor.InputType, settings.Codecs, settings.Options.MaxRequestBodySize, settings.InPlaceBodyLimit);

    private readonly bool _getAllowed = GetVerbPolicy.Allows(descriptor, settings.RestrictGet);

    public RequestDelegate HandlerFor(WritableMediaType? forcedType) => context => HandleCallAsync(context, forcedType);

    public async Task HandleCallAsync(HttpContext context, WritableMediaType? forcedType)
    {
        context.Response.Headers.Vary = "Accept";
        var failure = new CallFailureInfo(method.Name, settings.Logger, settings.Codecs, settings.DetailedErrors, settings.Options.MaxRequestBodySize, ErrorType: forcedType);
        CallDeadline? deadline = null;
        ProtoHttpServerCallContext? callContext = null;
        var telemetry = CallTelemetry.Start(context, CallTelemetry.ProtoHttpSystem, method);
        var code = StatusCode.OK;
        try
        {
            var request = context.Request;

            var isGet = HttpMethods.IsGet(request.Method);
            if (isGet ? !_getAllowed : !HttpMethods.IsPost(request.Method))
            {
                throw CallRejectedException.MethodNotAllowed(request.Method, _getAllowed ? "GET, POST" : "POST");
            }

            var (reader, ownFormat) = isGet ? _requestReader.ForQuery() : _requestReader.ForBody(request);
            var responseType = forcedType ?? AcceptNegotiator.Negotiate(request.Headers.Accept, ownFormat);
            if (responseType is null || settings.Codecs.Writer(responseType.Format) is null)
            {
                failure = failure with { ErrorType = MediaTypes.Canonical(MessageFormat.Json) };
                throw CallRejectedException.NotAcceptable();
            }

            failure = failure with { ErrorType = responseType };
            ProtoHttpLog.FormatChosen(settings.Logger, method.Name, reader?.Format, responseType.ContentType);

            var timeout = ConnectTimeout.Parse(request.Headers[ConnectTimeout.HeaderName]);
            deadline = CallDeadline.Start(context, timeout, streaming: false);
            failure = failure with { Timeout = deadline.Timeout };
            var cancellationToken = deadline.Token;

            var message = isGet
                ? _requestReader.ReadQuery(request, reader)
                : await _requestReader.ReadBodyAsync(context, reader, cancellationToken);
            settings.Codecs.CheckRequiredFields(message);

            callContext = new ProtoHttpServerCallContext(context, method.FullName, deadline.Utc, cancellationToken);
            // What the invoker throws is the app's (the service, its interceptors); kept in the failure info, which
            // the call's state already holds, so marking it costs no field.
            failure = failure with { FromService = true };
            var response = await invoker.InvokeAsync((TRequest)message, callContext);
            failure = failure with { FromService = false };
            if (callContext.Status.StatusCode != StatusCode.OK)
            {
                throw new RpcException(callContext.Status);
            }

            if (callContext.HasResponseTrailers)
            {
                HeaderMetadata.AddToResponse(callContext.ResponseTrailers, context.Response.Headers);
            }

            await ResponseWriter.WriteAsync(context.Response, StatusCodes.Status200OK, (IMessage)response, responseType, settings.Codecs);
        }
        catch (Exception ex)
        {
            if (ex is RpcException && callContext is { HasResponseTrailers: true })
            {
                // As under grpc-dotnet: trailers set before the refusal (by the service or an interceptor) go out with it.
                HeaderMetadata.AddToResponse(callContext.ResponseTrailers, context.Response.Headers);
            }

            failure = failure with
            {
                DeadlineExpired = deadline?.Expired ?? false,
            };
            code = await CallErrors.HandleAsync(context, ex, failure);
        }
        finally
        {
            telemetry.Stop(code);
            deadline?.Dispose();
        }
    }
}
