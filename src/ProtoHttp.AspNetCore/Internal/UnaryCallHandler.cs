using System.Text;
using Google.Protobuf;
using Google.Protobuf.Reflection;
using Grpc.Core;
using Microsoft.AspNetCore.Antiforgery;
using Microsoft.AspNetCore.Http;
using Microsoft.AspNetCore.Http.Features;

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
    private readonly MessageDescriptor _requestDescriptor = descriptor.InputType;

    // GET is allowed unless the service restricts it to methods the .proto declares free of side effects.
    private readonly bool _getAllowed =
        !settings.Options.RestrictGetToNoSideEffectMethods
        || descriptor.GetOptions()?.IdempotencyLevel == MethodOptions.Types.IdempotencyLevel.NoSideEffects;

    public RequestDelegate HandlerFor(WritableMediaType? forcedType) => context => HandleCallAsync(context, forcedType);

    public async Task HandleCallAsync(HttpContext context, WritableMediaType? forcedType)
    {
        context.Response.Headers.Vary = "Accept";
        var failure = new CallFailureInfo(method.Name, settings.Logger, settings.Codecs, settings.DetailedErrors, settings.Options.MaxRequestBodySize, ErrorType: forcedType);
        CancellationTokenSource? deadline = null;
        ProtoHttpServerCallContext? callContext = null;
        try
        {
            var request = context.Request;

            var isGet = HttpMethods.IsGet(request.Method);
            if (isGet ? !_getAllowed : !HttpMethods.IsPost(request.Method))
            {
                throw CallRejectedException.MethodNotAllowed(request.Method, _getAllowed ? "GET, POST" : "POST");
            }

            var (reader, ownFormat) = isGet ? QueryReader() : BodyReader(request);
            var responseType = forcedType ?? AcceptNegotiator.Negotiate(request.Headers.Accept, ownFormat);
            if (responseType is null || settings.Codecs.Writer(responseType.Format) is null)
            {
                failure = failure with { ErrorType = MediaTypes.Canonical(MessageFormat.Json) };
                throw CallRejectedException.NotAcceptable();
            }

            failure = failure with { ErrorType = responseType };
            ProtoHttpLog.FormatChosen(settings.Logger, method.Name, reader?.Format, responseType.ContentType);

            var timeout = ConnectTimeout.Parse(request.Headers[ConnectTimeout.HeaderName]);
            failure = failure with { Timeout = timeout };
            var cancellationToken = context.RequestAborted;
            var deadlineUtc = DateTime.MaxValue;
            if (timeout is { } span)
            {
                deadlineUtc = DateTime.UtcNow + span;
                deadline = CancellationTokenSource.CreateLinkedTokenSource(context.RequestAborted);
                if (span.TotalMilliseconds <= int.MaxValue)
                {
                    deadline.CancelAfter(span);
                }

                cancellationToken = deadline.Token;
            }

            var message = isGet
                ? ReadQuery(request, reader)
                : await ReadBodyAsync(context, reader, cancellationToken);
            RequiredFields.Check(message, settings.Codecs.Options.Extensions);

            callContext = new ProtoHttpServerCallContext(context, method.FullName, deadlineUtc, cancellationToken);
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
                DeadlineExpired = deadline is { IsCancellationRequested: true } && !context.RequestAborted.IsCancellationRequested,
            };
            await CallErrors.HandleAsync(context, ex, failure);
        }
        finally
        {
            deadline?.Dispose();
        }
    }

    private (IMessageReader? Reader, MessageFormat OwnFormat) QueryReader() =>
        (settings.Codecs.Reader(MessageFormat.Form), MessageFormat.Json);

    private (IMessageReader? Reader, MessageFormat OwnFormat) BodyReader(HttpRequest request)
    {
        var contentType = request.ContentType;
        if (string.IsNullOrEmpty(contentType))
        {
            if (!HasBody(request))
            {
                return (null, MessageFormat.Json); // No type and no body: the empty message.
            }

            throw CallRejectedException.UnsupportedMediaType("The request has a body but no Content-Type header.");
        }

        var match = MediaTypes.MatchContentType(contentType);
        var reader = match.Status == ContentTypeStatus.Readable ? settings.Codecs.Reader(match.Format) : null;
        if (match.Status == ContentTypeStatus.UnsupportedCharset)
        {
            throw CallRejectedException.UnsupportedMediaType($"The Content-Type '{contentType}' names a charset other than utf-8; text formats must be UTF-8.");
        }

        if (reader is null)
        {
            throw CallRejectedException.UnsupportedMediaType($"The Content-Type '{contentType}' is not a format this service reads.");
        }

        if (match.Format == MessageFormat.Form && request.HttpContext.Features.Get<IAntiforgeryValidationFeature>() is { IsValid: false } antiforgery)
        {
            // ASP.NET Core's antiforgery middleware ran (the app registered antiforgery) and refused the form's token.
            throw CallRejectedException.BadRequest($"The form post has no valid antiforgery token: {antiforgery.Error?.Message}");
        }

        return (reader, match.Format == MessageFormat.Form ? MessageFormat.Json : match.Format);
    }

    private static bool HasBody(HttpRequest request) =>
        request.ContentLength is > 0
        || request.ContentLength is null && (request.HttpContext.Features.Get<IHttpRequestBodyDetectionFeature>()?.CanHaveBody ?? false);

    private IMessage ReadQuery(HttpRequest request, IMessageReader? reader)
    {
        var query = request.QueryString.Value;
        if (string.IsNullOrEmpty(query) || query == "?")
        {
            return MessageFactory.Create(_requestDescriptor);
        }

        if (reader is null)
        {
            throw CallRejectedException.BadRequest("This server does not bind query strings.");
        }

        // The raw query is ASCII by construction (anything else is percent-encoded); the binder decodes it.
        var bytes = Encoding.Latin1.GetBytes(query, 1, query.Length - 1);
        return reader.Read(new System.Buffers.ReadOnlySequence<byte>(bytes), _requestDescriptor);
    }

    private async ValueTask<IMessage> ReadBodyAsync(HttpContext context, IMessageReader? reader, CancellationToken cancellationToken)
    {
        if (reader is null)
        {
            return MessageFactory.Create(_requestDescriptor);
        }

        using var body = await RequestBodyReader.ReadAsync(context, settings.Options.MaxRequestBodySize, settings.InPlaceBodyLimit, cancellationToken);
        return reader.Read(body.Data, _requestDescriptor);
    }
}
