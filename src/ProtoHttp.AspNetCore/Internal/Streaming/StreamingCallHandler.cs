using Google.Protobuf.Reflection;
using Grpc.Core;
using Microsoft.AspNetCore.Http;
using ProtoHttp.AspNetCore.Connect;
using ProtoHttp.AspNetCore.Telemetry;
using ProtoHttp.Streaming;

namespace ProtoHttp.AspNetCore.Internal.Streaming;

/// <summary>
/// Serves one streaming method over HTTP (docs/protocol.md section 10): checks the verb, transport and media types, chooses the
/// stream format, sets the deadline, calls the service through its invoker with a response stream in that format, and
/// ends the stream with its last record. A failure before anything was written answers as a unary call does (status and
/// ErrorResult); after that, in the last record. Every failure is decided by <see cref="CallErrors"/>, told whether it
/// came from the app's code or from ProtoHttp's, or from a request stream the client got wrong.
/// </summary>
internal abstract class StreamingCallHandler<TService, TRequest, TResponse>(
    Method<TRequest, TResponse> method, MethodDescriptor descriptor, ServiceCallSettings<TService> settings)
    where TService : class
    where TRequest : class
    where TResponse : class
{
    protected Method<TRequest, TResponse> Method => method;

    protected MethodDescriptor Descriptor => descriptor;

    protected ServiceCallSettings<TService> Settings => settings;

    /// <summary>
    /// A handler for one route: <paramref name="forced"/> is the stream a suffix names; <paramref name="suffixWithoutStream"/>
    /// a suffix whose format has no stream (<c>.xml</c>), which answers 406 once the request is otherwise acceptable.
    /// </summary>
    public RequestDelegate HandlerFor(StreamMediaType? forced, string? suffixWithoutStream = null) =>
        context => HandleCallAsync(context, forced, suffixWithoutStream, connect: false);

    /// <summary>
    /// The handler for the method's Connect path (docs/connect.md): a POST of envelopes in the request's codec,
    /// answered in envelopes of that codec, and once the request is accepted, always 200 with the outcome in the
    /// end-stream envelope, as Connect's streaming protocol says.
    /// </summary>
    public RequestDelegate ConnectHandler => context => HandleCallAsync(context, forced: null, suffixWithoutStream: null, connect: true);

    /// <summary>Checks the verb, the transport and the request's media type; decides how the request is read.</summary>
    /// <exception cref="CallRejectedException">405, 505 or 415.</exception>
    protected abstract StreamRequestPlan PlanRequest(HttpRequest request);

    /// <summary>Reads what must be read before the service runs: the one request of a server-streaming call.</summary>
    protected abstract ValueTask<TRequest?> ReadRequestAsync(HttpContext context, StreamRequestPlan plan, CancellationToken cancellationToken);

    /// <summary>Runs the service, writing what it answers to <paramref name="response"/>.</summary>
    protected abstract Task InvokeAsync(
        TRequest? request, EnvelopeStreamReader<TRequest>? requestStream, StreamResponseWriter response, ProtoHttpServerCallContext context);

    /// <summary>Whether the request body is a stream of envelopes the service reads as it runs.</summary>
    protected abstract bool ReadsRequestStream { get; }

    protected static CallRejectedException MethodNotAllowed(string verb, string allow) => CallRejectedException.MethodNotAllowed(verb, allow);

    private async Task HandleCallAsync(HttpContext context, StreamMediaType? forced, string? suffixWithoutStream, bool connect)
    {
        if (!connect)
        {
            context.Response.Headers.Vary = "Accept";
        }

        var failure = new CallFailureInfo(method.Name, settings.Logger, settings.Codecs, settings.DetailedErrors, settings.Options.MaxRequestBodySize,
            ErrorType: forced is null ? null : ErrorTypeOf(forced), Connect: connect);
        CallDeadline? deadline = null;
        ProtoHttpServerCallContext? callContext = null;
        StreamResponseWriter? response = null;
        EnvelopeStreamReader<TRequest>? requestStream = null;
        var telemetry = CallTelemetry.Start(context, connect ? CallTelemetry.ConnectSystem : CallTelemetry.ProtoHttpSystem, method);
        var code = StatusCode.OK;
        try
        {
            var request = context.Request;
            var plan = connect ? PlanConnectRequest(request) : PlanRequest(request);
            if (suffixWithoutStream is not null)
            {
                throw new CallRejectedException(StatusCodes.Status406NotAcceptable, StatusCode.InvalidArgument,
                    $"The {suffixWithoutStream} suffix names a format with no stream form; a streaming method answers {StreamAcceptNegotiator.WritableList}.");
            }

            // Connect answers in the request's own envelopes, whatever Accept says.
            var type = connect ? plan.Envelope : forced ?? StreamAcceptNegotiator.Negotiate(request.Headers.Accept, plan.OwnFormat);
            if (type is null)
            {
                failure = failure with { ErrorType = MediaTypes.Canonical(MessageFormat.Json) };
                throw new CallRejectedException(StatusCodes.Status406NotAcceptable, StatusCode.InvalidArgument,
                    $"None of the media types in the Accept header is a stream format; a streaming method answers {StreamAcceptNegotiator.WritableList}.");
            }

            failure = failure with { ErrorType = ErrorTypeOf(type) };
            ProtoHttpLog.FormatChosen(settings.Logger, method.Name, plan.Reader?.Format, type.ContentType);

            if (connect)
            {
                // From here on a Connect call's failures are told in the end-stream envelope, with status 200, as
                // Connect's streaming protocol says (only the media type, verb and HTTP version are refused by status).
                response = ConnectResponseWriter(context, type);
                ConnectHeaders.CheckProtocolVersion(request);
                plan = plan with { Gzip = ConnectCompression.IsGzip(request.Headers[ConnectStreamHeaders.ContentEncoding]) };
            }

            var timeout = ConnectTimeout.Parse(request.Headers[ConnectTimeout.HeaderName]);
            deadline = CallDeadline.Start(context, timeout, streaming: true);
            failure = failure with { Timeout = deadline.Timeout };
            var cancellationToken = deadline.Token;

            var message = await ReadRequestAsync(context, plan, cancellationToken);
            if (ReadsRequestStream)
            {
                requestStream = new EnvelopeStreamReader<TRequest>(context.Request.BodyReader, plan.Reader!, descriptor.InputType,
                    settings.Codecs, settings.Options.MaxRequestBodySize, settings.InPlaceBodyLimit, cancellationToken)
                {
                    Plan = plan,
                };
            }

            callContext = new ProtoHttpServerCallContext(context, method.FullName, deadline.Utc, cancellationToken);
            response ??= StreamResponseWriter.For(context, type, settings.Codecs, settings.Options.StreamKeepAliveInterval);
            failure = failure with { FromService = true };
            await InvokeAsync(message, requestStream, response, callContext);
            failure = failure with { FromService = false };
            if (callContext.Status.StatusCode != StatusCode.OK)
            {
                throw new RpcException(callContext.Status);
            }

            await response.EndAsync(StreamOutcome.Ok(callContext.HasResponseTrailers ? callContext.ResponseTrailers : null));
        }
        catch (Exception ex)
        {
            var cause = ex;
            if (requestStream?.Fault is { } fault && failure.FromService)
            {
                // The service failed on the request stream the client got wrong: that is what the call answers.
                cause = fault;
                failure = failure with { FromService = false };
            }

            failure = failure with
            {
                DeadlineExpired = deadline?.Expired ?? false,
            };
            code = await FailAsync(context, cause, failure, response, callContext, connect);
        }
        finally
        {
            telemetry.Stop(code);
            if (requestStream is not null)
            {
                await requestStream.StopAsync();
            }

            if (response is not null)
            {
                await response.DisposeAsync();
            }

            deadline?.Dispose();
        }
    }

    /// <returns>The status the call ended with (<c>Cancelled</c> when the client went away).</returns>
    private static async Task<StatusCode> FailAsync(
        HttpContext context, Exception exception, CallFailureInfo failure, StreamResponseWriter? response, ProtoHttpServerCallContext? callContext, bool connect)
    {
        if (CallErrors.Decide(exception, failure, context.RequestAborted.IsCancellationRequested) is not { } decided)
        {
            return StatusCode.Cancelled; // The client went away: nobody is left to tell.
        }

        var trailers = callContext is { HasResponseTrailers: true } ? callContext.ResponseTrailers : null;
        if (response is null)
        {
            await CallErrors.AnswerAsync(context, decided, failure);
            return decided.Code;
        }

        try
        {
            var outcome = new StreamOutcome(decided.Code, decided.Text, Merge(trailers, decided.Trailers));
            if (connect)
            {
                await response.EndAsync(outcome);
                return decided.Code;
            }

            await response.EndAsync(outcome, unstarted: () =>
            {
                if (trailers is not null)
                {
                    // As for unary calls: trailers set before the failure go out with it, as headers.
                    HeaderMetadata.AddToResponse(trailers, context.Response.Headers);
                }

                return CallErrors.AnswerAsync(context, decided, failure);
            });
        }
        catch (Exception ex) when (context.RequestAborted.IsCancellationRequested && ex is OperationCanceledException or IOException)
        {
            // The client left while the last record was on its way.
        }

        return decided.Code;
    }

    private static Metadata? Merge(Metadata? first, Metadata? second)
    {
        if (first is not { Count: > 0 })
        {
            return second;
        }

        if (second is not { Count: > 0 })
        {
            return first;
        }

        var merged = new Metadata();
        foreach (var entry in first.Concat(second))
        {
            merged.Add(entry);
        }

        return merged;
    }

    /// <summary>
    /// A Connect streaming request: a POST of <c>application/connect+proto</c> or <c>+json</c> envelopes; then as on
    /// ProtoHttp's routes (a bidirectional call needs HTTP/2).
    /// </summary>
    /// <exception cref="CallRejectedException">405, 415 or what <see cref="PlanRequest"/> refuses.</exception>
    private StreamRequestPlan PlanConnectRequest(HttpRequest request)
    {
        if (!HttpMethods.IsPost(request.Method))
        {
            throw MethodNotAllowed(request.Method, "POST");
        }

        if (StreamMediaTypes.EnvelopeType(request.ContentType) is null)
        {
            throw new CallRejectedException(StatusCodes.Status415UnsupportedMediaType, StatusCode.InvalidArgument,
                $"The Content-Type '{request.ContentType}' is not a Connect streaming codec; use {StreamMediaTypes.EnvelopeTypes}.")
            {
                Hint = new("Accept-Post", StreamMediaTypes.EnvelopeTypes),
            };
        }

        return PlanRequest(request) with { Connect = true };
    }

    /// <summary>
    /// The envelopes of a Connect stream, gzipped from <c>ConnectCompressionMinSize</c> bytes on when the client accepts
    /// gzip (<c>Connect-Accept-Encoding</c>, or without it, a gzipped request); the response says so, and that gzip is
    /// what this server reads.
    /// </summary>
    private EnvelopeStreamWriter ConnectResponseWriter(HttpContext context, StreamMediaType type)
    {
        var headers = context.Request.Headers;
        var gzip = ConnectCompression.AnswersGzip(headers[ConnectStreamHeaders.AcceptEncoding], headers[ConnectStreamHeaders.ContentEncoding]);
        var responseHeaders = context.Response.Headers;
        responseHeaders[ConnectStreamHeaders.AcceptEncoding] = ConnectCompression.Gzip;
        if (gzip)
        {
            responseHeaders[ConnectStreamHeaders.ContentEncoding] = ConnectCompression.Gzip;
        }

        return new EnvelopeStreamWriter(context, type, settings.Codecs.Writer(type.Codec)!)
        {
            GzipMinSize = gzip ? settings.Options.ConnectCompressionMinSize : null,
        };
    }

    /// <summary>The unary type an ErrorResult goes out in before the stream starts: protobuf for <c>connect+proto</c>, else JSON.</summary>
    private static WritableMediaType ErrorTypeOf(StreamMediaType type) => MediaTypes.Canonical(type.Codec);
}
