using System.Globalization;
using Google.Protobuf;
using Grpc.Core;
using Microsoft.AspNetCore.Http;
using ProtoHttp.AspNetCore.Framing;
using ProtoHttp.AspNetCore.Internal;
using ProtoHttp.AspNetCore.Pipeline;

namespace ProtoHttp.AspNetCore.Protocols.GrpcWeb;

/// <summary>
/// gRPC-Web (docs/grpc-web.md, docs/protocol.md section 12) at <c>/{package.Service}/{Method}</c>, beside Connect:
/// unary and server-streaming methods, a POST of one message frame in a gRPC-Web type, answered 200 with a frame per
/// response message and the trailers frame last, whatever the outcome. Its writer opens as soon as the request is
/// accepted, for unary calls too, so every later failure goes in the trailers frame; only a wrong verb or a type it has
/// no codec for (and refusals before the endpoint runs, such as authorization's) answer by HTTP status, with
/// <c>grpc-status</c> and <c>grpc-message</c> as headers.
/// </summary>
internal sealed class GrpcWebProtocol : CallProtocol
{
    // A service mapped at several prefixes answers gRPC-Web once, with the first mapping's conventions, as Connect does.
    private readonly HashSet<string> _claimed = [];

    public override string Name => ProtocolNames.GrpcWeb;

    /// <summary>What gRPC-Web clients (grpc-web, connect-es's gRPC-Web transport) send: the type, the deadline, the client's marker and name, compression.</summary>
    public override IReadOnlyList<string> CorsRequestHeaders { get; } =
        ["Content-Type", "Grpc-Timeout", "X-Grpc-Web", "X-User-Agent", "Grpc-Encoding", "Grpc-Accept-Encoding"];

    /// <summary>
    /// What a gRPC-Web client must read: the status, where a refusal (405, 415) carries it as headers; a call's outcome
    /// travels in the body's trailers frame, which needs no exposing.
    /// </summary>
    public override IReadOnlyList<string> CorsResponseHeaders { get; } = ["Grpc-Status", "Grpc-Message", "Grpc-Status-Details-Bin"];

    /// <summary>OpenTelemetry names gRPC, over any transport, <c>grpc</c>.</summary>
    public override string TelemetrySystem => "grpc";

    public override void MapEndpoints(ServiceEndpoints service)
    {
        var settings = service.Settings;
        if (!Claim(service.Service.Descriptor.FullName))
        {
            return;
        }

        var mediaTypes = GrpcWebMediaTypes.All(settings.Codecs);

        // gRPC-Web has no client or bidirectional streams.
        foreach (var method in service.Methods.Where(m => m.Method.Type is MethodType.Unary or MethodType.ServerStreaming))
        {
            var route = new CallRoute(this, method, service, $"/{service.Service.Descriptor.FullName}/{method.Name}")
            {
                Reads = mediaTypes,
                Writes = mediaTypes,
            };
            var path = route.Pattern;
            // Service and method names are exact; another spelling is a method this server does not have: gRPC's UNIMPLEMENTED.
            var exact = ExactPath.Guard(path, method.Handler(route), context => UnimplementedAsync(context, settings.Codecs));
            // OpenAPI has no words for framed messages: the method is described at its ProtoHttp route and Connect path.
            service.MapMethod(method, route, exact, "ProtoHttp gRPC-Web " + path, GrpcWebClaim.Instance, new Microsoft.AspNetCore.Routing.ExcludeFromDescriptionAttribute());
        }
    }

    public override CallExchange Accept(ProtoHttpServerCallContext call)
    {
        var request = call.HttpContext.Request;
        var codecs = call.Route.Settings.Codecs;
        if (GrpcWebMediaTypes.Parse(request.ContentType, codecs) is not { } type)
        {
            var acceptPost = string.Join(", ", call.Route.Reads);
            throw CallRejectedException.UnsupportedMediaType(
                $"The Content-Type '{request.ContentType}' is not a gRPC-Web type this service reads; use {acceptPost}.", acceptPost);
        }

        return new GrpcWebExchange(call, type);
    }

    public override TimeSpan? ReadTimeout(HttpRequest request) => GrpcTimeout.Parse(request.Headers[GrpcTimeout.HeaderName]);

    /// <summary>
    /// A refusal before the call is gRPC-Web at all (verb, media type) or before the endpoint ran (authorization, rate
    /// limiting): its HTTP status, which gRPC-Web clients map to a code, and the status and text as headers too.
    /// </summary>
    public override Task WriteErrorAsync(HttpContext context, CallFailure failure, WritableMediaType? errorType, MessageCodecs codecs)
    {
        var response = context.Response;
        response.StatusCode = failure.HttpStatus;
        response.Headers[GrpcWebTrailers.StatusName] = ((int)failure.Code).ToString(CultureInfo.InvariantCulture);
        response.Headers[GrpcWebTrailers.MessageName] = GrpcWebTrailers.PercentEncode(failure.Text);
        return Task.CompletedTask;
    }

    private static Task UnimplementedAsync(HttpContext context, MessageCodecs codecs)
    {
        var type = GrpcWebMediaTypes.Parse(context.Request.ContentType, codecs) ?? GrpcWebMediaTypes.Parse(GrpcWebMediaTypes.Binary, codecs)!;
        return new GrpcWebResponseWriter(context, type, codec: null).EndAsync(
            new StreamOutcome(StatusCode.Unimplemented, $"No method {context.Request.Path.Value} here; method names are case-sensitive.", null));
    }

    private bool Claim(string serviceFullName)
    {
        lock (_claimed)
        {
            return _claimed.Add(serviceFullName);
        }
    }
}
