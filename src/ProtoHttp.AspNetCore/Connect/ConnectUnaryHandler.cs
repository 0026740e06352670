using Google.Protobuf;
using Google.Protobuf.Reflection;
using Grpc.Core;
using Microsoft.AspNetCore.Http;
using ProtoHttp.AspNetCore.Internal;
using ProtoHttp.AspNetCore.Telemetry;

namespace ProtoHttp.AspNetCore.Connect;

/// <summary>
/// Serves one unary method in the Connect protocol at <c>/{package.Service}/{Method}</c>: POST with
/// <c>application/proto</c> or <c>application/json</c>, GET with the message in the query for methods free of side
/// effects, gzip both ways, Connect's error JSON. The service is called through the same invoker (interceptors,
/// activation, deadline) as on ProtoHttp's own routes, and failures go through the same <see cref="CallErrors"/>.
/// </summary>
internal sealed class ConnectUnaryHandler<TService, TRequest, TResponse>(
    Method<TRequest, TResponse> method,
    MethodDescriptor descriptor,
    UnaryMethodInvoker<TService, TRequest, TResponse> invoker,
    ServiceCallSettings<TService> settings)
    where TService : class
    where TRequest : class
    where TResponse : class
{
    private readonly MessageDescriptor _requestDescriptor = descriptor.InputType;

    // Connect allows GET only for methods the .proto declares free of side effects, whatever ProtoHttp's own routes do.
    private readonly bool _getAllowed = GetVerbPolicy.HasNoSideEffects(descriptor);

    public async Task HandleCallAsync(HttpContext context)
    {
        var failure = new CallFailureInfo(method.Name, settings.Logger, settings.Codecs, settings.DetailedErrors, settings.Options.MaxRequestBodySize,
            ErrorType: null, Connect: true);
        CallDeadline? deadline = null;
        ProtoHttpServerCallContext? callContext = null;
        var telemetry = CallTelemetry.Start(context, CallTelemetry.ConnectSystem, method);
        var code = StatusCode.OK;
        try
        {
            var request = context.Request;
            var isGet = HttpMethods.IsGet(request.Method);
            if (isGet ? !_getAllowed : !HttpMethods.IsPost(request.Method))
            {
                throw CallRejectedException.MethodNotAllowed(request.Method, _getAllowed ? "GET, POST" : "POST");
            }

            ConnectHeaders.CheckProtocolVersion(request);

            var timeout = ConnectTimeout.Parse(request.Headers[ConnectTimeout.HeaderName]);
            deadline = CallDeadline.Start(context, timeout, streaming: false);
            failure = failure with { Timeout = deadline.Timeout };
            var cancellationToken = deadline.Token;

            var (message, codec) = isGet
                ? ConnectGetRequest.Read(request.Query, settings.Codecs, _requestDescriptor, settings.Options.MaxRequestBodySize)
                : await ReadBodyAsync(context, cancellationToken);
            settings.Codecs.CheckRequiredFields(message);

            callContext = new ProtoHttpServerCallContext(context, method.FullName, deadline.Utc, cancellationToken);
            failure = failure with { FromService = true };
            var response = await invoker.InvokeAsync((TRequest)message, callContext);
            failure = failure with { FromService = false };
            if (callContext.Status.StatusCode != StatusCode.OK)
            {
                throw new RpcException(callContext.Status);
            }

            if (callContext.HasResponseTrailers)
            {
                HeaderMetadata.AddToResponse(callContext.ResponseTrailers, context.Response.Headers, ConnectHeaders.TrailerPrefix);
            }

            await WriteResponseAsync(context, (IMessage)response, codec);
        }
        catch (Exception ex)
        {
            if (ex is RpcException && callContext is { HasResponseTrailers: true })
            {
                HeaderMetadata.AddToResponse(callContext.ResponseTrailers, context.Response.Headers, ConnectHeaders.TrailerPrefix);
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

    private async ValueTask<(IMessage Message, MessageFormat Codec)> ReadBodyAsync(HttpContext context, CancellationToken cancellationToken)
    {
        var request = context.Request;
        if (ConnectMediaTypes.Codec(request.ContentType) is not { } codec || settings.Codecs.Reader(codec) is not { } reader)
        {
            throw new CallRejectedException(StatusCodes.Status415UnsupportedMediaType, StatusCode.InvalidArgument,
                $"The Content-Type '{request.ContentType}' is not a Connect codec this service reads; use {ConnectMediaTypes.AcceptPost}.")
            {
                Hint = new("Accept-Post", ConnectMediaTypes.AcceptPost),
            };
        }

        var gzip = ConnectCompression.IsGzip(request.Headers.ContentEncoding);
        var limit = settings.Options.MaxRequestBodySize;
        using var body = await RequestBodyReader.ReadAsync(context, limit, settings.InPlaceBodyLimit, cancellationToken);
        if (!gzip)
        {
            return (reader.Read(body.Data, _requestDescriptor), codec);
        }

        return (ConnectCompression.ReadGzipped(reader, body.Data, _requestDescriptor, limit), codec);
    }

    private async Task WriteResponseAsync(HttpContext context, IMessage message, MessageFormat codec)
    {
        var type = codec == MessageFormat.Protobuf ? ConnectMediaTypes.ProtoResponse : ConnectMediaTypes.JsonResponse;
        var minSize = settings.Options.ConnectCompressionMinSize;
        var request = context.Request;
        var requestEncoding = HttpMethods.IsGet(request.Method) ? request.Query["compression"] : request.Headers.ContentEncoding;
        if (!ConnectCompression.AnswersGzip(request.Headers.AcceptEncoding, requestEncoding)
            || codec == MessageFormat.Protobuf && message.CalculateSize() < minSize)
        {
            // Uncompressed, the answer goes out as on ProtoHttp's own routes: protobuf straight into the response pipe.
            await ResponseWriter.WriteAsync(context.Response, StatusCodes.Status200OK, message, type, settings.Codecs);
            return;
        }

        var response = context.Response;
        response.StatusCode = StatusCodes.Status200OK;
        response.ContentType = type.ContentType;
        using var buffer = new PooledBufferWriter(4096);
        settings.Codecs.Writer(codec)!.Write(message, buffer);
        var body = buffer.WrittenMemory;
        if (body.Length >= minSize)
        {
            body = ConnectCompression.Compress(body.Span);
            response.Headers.ContentEncoding = ConnectCompression.Gzip;
        }

        response.ContentLength = body.Length;
        await response.BodyWriter.WriteAsync(body);
    }
}
