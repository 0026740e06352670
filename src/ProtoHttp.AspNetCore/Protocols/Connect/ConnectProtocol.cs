using Google.Protobuf;
using Google.Protobuf.WellKnownTypes;
using Grpc.Core;
using Microsoft.AspNetCore.Http;
using ProtoHttp.AspNetCore.Framing;
using ProtoHttp.AspNetCore.Internal;
using ProtoHttp.AspNetCore.Invocation;
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

    /// <summary>What connect-web sends: the codec, the protocol version, the deadline and compression, its name.</summary>
    public override IReadOnlyList<string> CorsRequestHeaders { get; } =
    [
        "Content-Type",
        "Connect-Protocol-Version",
        "Connect-Timeout-Ms",
        "Content-Encoding",
        "Accept-Encoding",
        "Connect-Content-Encoding",
        "Connect-Accept-Encoding",
        "X-User-Agent",
    ];

    /// <summary>What a Connect client must read: the compression it has to undo.</summary>
    public override IReadOnlyList<string> CorsResponseHeaders { get; } = ["Content-Encoding", "Connect-Content-Encoding"];

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
            var route = new ConnectCallRoute(this, method, service, $"/{service.Service.Descriptor.FullName}/{method.Name}", responseTypes)
            {
                // Connect allows GET only for methods the .proto declares free of side effects, whatever ProtoHttp's own routes do.
                AllowsGet = unary && GetVerbPolicy.HasNoSideEffects(method.Descriptor),
                Reads = unary ? unaryTypes : streamTypes,
                Writes = unary ? unaryTypes : streamTypes,
            };
            var path = route.Pattern;
            // Procedure names are exact; another spelling is a procedure this server does not have, as Connect says.
            var exact = ExactPath.Guard(path, method.Handler(route), context =>
                ConnectErrorWriter.WriteAsync(context.Response, StatusCodes.Status404NotFound, StatusCode.Unimplemented,
                    $"No procedure {context.Request.Path.Value} here; procedure names are case-sensitive.", []));
            service.MapMethod(method, route, exact, "ProtoHttp Connect " + path, ConnectClaim.Instance);
        }
    }

    /// <summary><c>Connect-Timeout-Ms</c>, as Connect's protocol says.</summary>
    public override TimeSpan? ReadTimeout(HttpRequest request) => MillisecondsTimeout.Parse(request.Headers[MillisecondsTimeout.HeaderName]);

    public override CallExchange Accept(ProtoHttpServerCallContext call)
    {
        var request = call.HttpContext.Request;
        var route = call.Route;
        if (route.Kind == MethodType.Unary)
        {
            ConnectHeaders.CheckProtocolVersion(request);
            // The answer's codec is the request message's, known once it is read (ConnectUnaryExchange).
            return route.Exchanges.Of(null, null, ConnectUnaryExchange.Make);
        }

        var codecs = route.Settings.Codecs;
        if (route.Settings.Streams.EnvelopeType(request.ContentType, codecs) is not { } envelope)
        {
            var envelopeTypes = StreamMediaTypes.EnvelopeTypes(codecs);
            throw CallRejectedException.UnsupportedMediaType(
                $"The Content-Type '{request.ContentType}' is not a Connect streaming codec; use {envelopeTypes}.", envelopeTypes);
        }

        // Connect answers in the request's own envelopes, whatever Accept says.
        return new ConnectStreamExchange(envelope);
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
}
