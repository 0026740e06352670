using Google.Protobuf;
using Google.Protobuf.WellKnownTypes;
using Grpc.Core;
using Microsoft.AspNetCore.Http;
using ProtoHttp.AspNetCore.Framing;
using ProtoHttp.AspNetCore.Internal;
using ProtoHttp.AspNetCore.Pipeline;
using ProtoHttp.Streaming;

namespace ProtoHttp.AspNetCore.Protocols.Connect;

/// <summary>
/// The Connect protocol (docs/connect.md) at <c>/{package.Service}/{Method}</c>: unary calls as POST with
/// <c>application/proto</c> or <c>application/json</c>, or GET with the message in the query for methods free of side
/// effects, gzip both ways, Connect's error JSON; streams as <c>application/connect+proto</c> or <c>+json</c> envelopes
/// answered in the request's own codec, always 200 once accepted, with the outcome in the end-stream envelope.
/// </summary>
internal sealed class ConnectProtocol(ConnectPathClaims claims) : CallProtocol
{
    private static readonly EnvelopeRules ConnectEnvelopes = new(StatusCode.Unimplemented, StatusCode.Internal);

    public override string Name => ProtocolNames.Connect;

    /// <summary>As OpenTelemetry names Connect.</summary>
    public override string TelemetrySystem => "connect_rpc";

    /// <summary>As connect_server_unexpected.yaml has it: no envelope or more than one is <c>unimplemented</c>, an unagreed compressed flag <c>internal</c>.</summary>
    public override EnvelopeRules Envelopes => ConnectEnvelopes;

    /// <summary>OpenTelemetry's Connect convention: an error code only for a failure.</summary>
    public override KeyValuePair<string, object?>? StatusTag(StatusCode code) =>
        code == StatusCode.OK ? null : new("rpc.connect_rpc.error_code", ConnectCodes.Name(code));

    public override void MapEndpoints(ServiceEndpoints service)
    {
        var settings = service.Settings;
        // A service mapped at several prefixes has its Connect paths once, with the first mapping's conventions.
        if (!claims.TryClaim(service.Service.Descriptor.FullName))
        {
            return;
        }

        // A Connect codec named name travels as application/{name}, its streams as application/connect+{name}.
        var responseTypes = ConnectMediaTypes.Responses(settings.Codecs);
        string[] unaryTypes = [.. responseTypes.Select(type => type.MediaType)];
        string[] streamTypes = [.. StreamMediaTypes.EnvelopeTypes(settings.Codecs).Split(", ")];
        foreach (var method in service.Methods)
        {
            var unary = method.Method.Type == MethodType.Unary;
            var route = new ConnectCallRoute
            {
                ResponseTypes = responseTypes,
                Protocol = this, Method = method.Method, Descriptor = method.Descriptor, Settings = settings, ProtoSource = service.ProtoSource,
                Pattern = $"/{service.Service.Descriptor.FullName}/{method.Name}",
                // Connect allows GET only for methods the .proto declares free of side effects, whatever ProtoHttp's own routes do.
                AllowsGet = unary && GetVerbPolicy.HasNoSideEffects(method.Descriptor),
                Reads = unary ? unaryTypes : streamTypes,
                Writes = unary ? unaryTypes : streamTypes,
            };
            var handler = method.Handler(route);
            var path = route.Pattern;
            // Procedure names are exact; another spelling is a procedure this server does not have, as Connect says.
            RequestDelegate exact = context => context.Request.Path.Value == path
                ? handler(context)
                : ConnectErrorWriter.WriteAsync(context.Response, StatusCodes.Status404NotFound, StatusCode.Unimplemented,
                    $"No procedure {context.Request.Path.Value} here; procedure names are case-sensitive.", []);
            service.MapMethod(method, route, exact, "ProtoHttp Connect " + path, ConnectEndpointMetadata.Instance);
        }
    }

    /// <summary><c>Connect-Timeout-Ms</c>, as Connect's protocol says.</summary>
    public override TimeSpan? ReadTimeout(HttpRequest request) => ConnectTimeout.Parse(request.Headers[ConnectTimeout.HeaderName]);

    public override void Accept(ProtoHttpServerCallContext call)
    {
        var request = call.HttpContext.Request;
        var route = call.Route;
        if (route.Kind == MethodType.Unary)
        {
            var isGet = HttpMethods.IsGet(request.Method);
            if (isGet ? !route.AllowsGet : !HttpMethods.IsPost(request.Method))
            {
                throw CallRejectedException.MethodNotAllowed(request.Method, route.AllowsGet ? "GET, POST" : "POST");
            }

            ConnectHeaders.CheckProtocolVersion(request);
            return;
        }

        if (!HttpMethods.IsPost(request.Method))
        {
            throw CallRejectedException.MethodNotAllowed(request.Method, "POST");
        }

        var codecs = route.Settings.Codecs;
        if (route.Settings.Streams.EnvelopeType(request.ContentType, codecs) is not { } envelope)
        {
            var envelopeTypes = StreamMediaTypes.EnvelopeTypes(codecs);
            throw CallRejectedException.UnsupportedMediaType(
                $"The Content-Type '{request.ContentType}' is not a Connect streaming codec; use {envelopeTypes}.", envelopeTypes);
        }

        // Connect answers in the request's own envelopes, whatever Accept says.
        call.RequestEnvelope = envelope;
        call.SetFormat(envelope.Codec, responseType: null);
        call.ResponseStreamType = envelope;
        ProtoHttpLog.FormatChosen(route.Settings.Logger, route.Method.Name, envelope.Codec.Name, envelope.ContentType);

        // From here on a failure is told in the end-stream envelope, with status 200, as Connect's streaming protocol
        // says (only the media type, verb and HTTP version are refused by status).
        call.ResponseStream = OpenResponseStream(call);
        ConnectHeaders.CheckProtocolVersion(request);
        call.RequestCompressed = ConnectCompression.IsGzip(request.Headers[ConnectStreamHeaders.ContentEncoding]);
    }

    public override ValueTask<IMessage> ReadMessageAsync(ProtoHttpServerCallContext call, CancellationToken cancellationToken)
    {
        if (call.Route.Kind != MethodType.Unary)
        {
            return SingleEnvelope.ReadAsync(call, cancellationToken);
        }

        var request = call.HttpContext.Request;
        if (!HttpMethods.IsGet(request.Method))
        {
            return ReadBodyAsync(call, cancellationToken);
        }

        var settings = call.Route.Settings;
        var (message, codec) = ConnectGetRequest.Read(request.Query, settings.Codecs, call.Route.Descriptor.InputType, settings.Options.MaxRequestBodySize);
        settings.Codecs.CheckRequiredFields(message);
        call.SetFormat(call.RequestReader, ResponseTypeOf(codec, call.Route));
        return ValueTask.FromResult(message);
    }

    public override async Task WriteMessageAsync(ProtoHttpServerCallContext call, IMessage message)
    {
        var context = call.HttpContext;
        var response = context.Response;
        if (call.TrailersOrNull is { } trailers)
        {
            HeaderMetadata.AddToResponse(trailers, response.Headers, ConnectHeaders.TrailerPrefix);
        }

        var type = call.ResponseType!;
        var settings = call.Route.Settings;
        var minSize = settings.Options.ConnectCompressionMinSize;
        var request = context.Request;
        var isGet = HttpMethods.IsGet(request.Method);
        var conditional = isGet ? call.Route.ConditionalGet : null;
        if (isGet)
        {
            // Whether the answer is gzipped depends on Accept-Encoding: a cache must keep one copy per encoding.
            response.Headers.Vary = "Accept-Encoding";
        }

        var requestEncoding = isGet ? request.Query["compression"] : request.Headers.ContentEncoding;
        if (!ConnectCompression.AnswersGzip(request.Headers.AcceptEncoding, requestEncoding)
            || type.Codec == MessageCodecs.Protobuf && message.CalculateSize() < minSize)
        {
            // Uncompressed, the answer goes out as on ProtoHttp's own routes: protobuf straight into the response pipe.
            await ResponseWriter.WriteAsync(response, StatusCodes.Status200OK, message, type, conditional);
            return;
        }

        response.StatusCode = StatusCodes.Status200OK;
        using var buffer = PooledBufferWriter.Rent(4096);
        type.Codec.Write(message, buffer.Writer);
        var body = buffer.WrittenMemory;
        var gzipped = body.Length >= minSize;

        // A gzipped answer is a representation of its own (RFC 9110, section 8.8.3), so its tag says so; taken from
        // the bytes before compression, it stays the same across zlib versions, and a 304 costs no compression.
        if (conditional?.NotModified(context, gzipped ? type.ContentType + "; gzip" : type.ContentType, body.Span) == true)
        {
            return;
        }

        response.ContentType = type.ContentType;
        if (gzipped)
        {
            body = GzipPayloads.Compress(body.Span);
            response.Headers.ContentEncoding = ConnectCompression.Gzip;
        }

        response.ContentLength = body.Length;
        await response.BodyWriter.WriteAsync(body);
    }

    /// <summary>
    /// The envelopes of a Connect stream, gzipped from <c>ConnectCompressionMinSize</c> bytes on when the client accepts
    /// gzip (<c>Connect-Accept-Encoding</c>, or without it, a gzipped request); the response says so, and that gzip is
    /// what this server reads.
    /// </summary>
    public override StreamResponseWriter OpenResponseStream(ProtoHttpServerCallContext call)
    {
        var context = call.HttpContext;
        var type = call.ResponseStreamType!;
        var headers = context.Request.Headers;
        var gzip = ConnectCompression.AnswersGzip(headers[ConnectStreamHeaders.AcceptEncoding], headers[ConnectStreamHeaders.ContentEncoding]);
        var responseHeaders = context.Response.Headers;
        responseHeaders[ConnectStreamHeaders.AcceptEncoding] = ConnectCompression.Gzip;
        if (gzip)
        {
            responseHeaders[ConnectStreamHeaders.ContentEncoding] = ConnectCompression.Gzip;
        }

        return new EnvelopeStreamWriter(context, type, type.Codec)
        {
            GzipMinSize = gzip ? call.Route.Settings.Options.ConnectCompressionMinSize : null,
            WritesEventIds = headers.ContainsKey(Envelope.EventIdsHeader),
        };
    }

    /// <summary>
    /// Connect's error JSON. Connect answers its own refusals of verb, media type and HTTP version, and a body that
    /// stopped arriving (408, as ProtoHttp's routes do), with their HTTP statuses; every other error's status follows
    /// from its code. The rich status travels in the error's details, the
    /// other trailers as <c>trailer-</c> headers.
    /// </summary>
    public override Task WriteErrorAsync(HttpContext context, CallFailure failure, WritableMediaType? errorType, MessageCodecs codecs)
    {
        IReadOnlyList<Any> details = [];
        if (failure.Trailers is { } trailers)
        {
            HeaderMetadata.AddToResponse(trailers, context.Response.Headers, ConnectHeaders.TrailerPrefix, except: RpcStatusDetails.TrailerName);
            details = RpcStatusDetails.Read(trailers);
        }

        var status = failure.HttpStatus is StatusCodes.Status405MethodNotAllowed or StatusCodes.Status415UnsupportedMediaType or StatusCodes.Status505HttpVersionNotsupported
            or StatusCodes.Status408RequestTimeout
            ? failure.HttpStatus
            : ConnectCodes.HttpStatus(failure.Code);
        return ConnectErrorWriter.WriteAsync(context.Response, status, failure.Code, failure.Text, details);
    }

    /// <summary>Once accepted, a Connect stream tells every failure in its end-stream envelope, with status 200.</summary>
    public override Task EndFailedStreamAsync(ProtoHttpServerCallContext call, StreamResponseWriter stream, CallFailure failure) =>
        stream.EndAsync(new StreamOutcome(failure.Code, failure.Text, failure.Trailers));

    /// <summary>What an answer in <paramref name="codec"/> goes out as, among the types built once for the service.</summary>
    private static WritableMediaType ResponseTypeOf(MessageCodec codec, CallRoute route)
    {
        // Every route of this protocol is a ConnectCallRoute: MapEndpoints makes them.
        var types = ((ConnectCallRoute)route).ResponseTypes;
        foreach (var type in types)
        {
            if (type.Codec == codec)
            {
                return type;
            }
        }

        return types[0];
    }

    private static async ValueTask<IMessage> ReadBodyAsync(ProtoHttpServerCallContext call, CancellationToken cancellationToken)
    {
        var context = call.HttpContext;
        var request = context.Request;
        var settings = call.Route.Settings;
        if (ConnectMediaTypes.Codec(request.ContentType, settings.Codecs) is not { } codec)
        {
            var acceptPost = ConnectMediaTypes.AcceptPost(settings.Codecs);
            throw CallRejectedException.UnsupportedMediaType(
                $"The Content-Type '{request.ContentType}' is not a Connect codec this service reads; use {acceptPost}.", acceptPost);
        }

        var reader = codec;

        var gzip = ConnectCompression.IsGzip(request.Headers.ContentEncoding);
        var limit = settings.Options.MaxRequestBodySize;
        var descriptor = call.Route.Descriptor.InputType;
        using var body = await RequestBodyReader.ReadAsync(context, limit, settings.InPlaceBodyLimit, cancellationToken);
        var message = gzip ? GzipPayloads.ReadMessage(reader, body.Data, descriptor, limit) : reader.Read(body.Data, descriptor);
        settings.Codecs.CheckRequiredFields(message);
        call.SetFormat(call.RequestReader, ResponseTypeOf(codec, call.Route));
        return message;
    }
}
