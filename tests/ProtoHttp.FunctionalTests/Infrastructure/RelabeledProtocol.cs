using Google.Protobuf;
using Grpc.Core;
using Microsoft.AspNetCore.Http;
using ProtoHttp.AspNetCore;
using ProtoHttp.AspNetCore.Framing;
using ProtoHttp.AspNetCore.Internal;
using ProtoHttp.AspNetCore.Pipeline;
using ProtoHttp.Streaming;

namespace ProtoHttp.FunctionalTests.Infrastructure;

/// <summary>
/// A protocol added from this project, as a fourth protocol would be added to ProtoHttp: a <see cref="CallProtocol"/>
/// registered in DI, built from the generic rooms only (Pipeline, Framing, Internal), with no part of ProtoHttp's own
/// protocols. It maps each unary and server-streaming method at <c>/relabeled{prefix}/{Method}</c>; a call is a POST
/// of JSON, answered in JSON or, for a stream, in JSON lines; its deadline arrives in <see cref="TimeoutHeader"/> (whole
/// milliseconds); its errors are an ErrorResult in JSON. Its name and <c>rpc.system</c> are its own, which telemetry
/// and the endpoint metadata carry.
/// </summary>
internal sealed class RelabeledProtocol : CallProtocol
{
    public const string RpcSystem = "relabeled_rpc";

    public const string PathPrefix = "/relabeled";

    public const string TimeoutHeader = "Relabeled-Timeout-Ms";

    // A protocol ProtoHttp does not know: its name is its own.
    public const string Protocol = "Relabeled";

    public override string Name => Protocol;

    public override string TelemetrySystem => RpcSystem;

    public override void MapEndpoints(ServiceEndpoints service)
    {
        foreach (var method in service.Methods.Where(m => m.Method.Type is MethodType.Unary or MethodType.ServerStreaming))
        {
            var route = new CallRoute(this, method, service, $"{PathPrefix}{service.Prefix}/{method.Name}")
            {
                Reads = ["application/json"],
                Writes = method.Method.Type == MethodType.Unary ? ["application/json"] : ["application/x-ndjson"],
            };
            service.MapMethod(method, route, method.Handler(route), "Relabeled " + route.Pattern);
        }
    }

    public override TimeSpan? ReadTimeout(HttpRequest request) =>
        request.Headers[TimeoutHeader] is [{ } value]
            ? long.TryParse(value, out var milliseconds) && milliseconds > 0
                ? TimeSpan.FromMilliseconds(milliseconds)
                : throw CallRejectedException.BadRequest($"{TimeoutHeader} must be a positive number of milliseconds, not '{value}'.")
            : null;

    /// <summary>The verb is checked already (POST only, as the route allows no GET).</summary>
    public override CallExchange Accept(ProtoHttpServerCallContext call)
    {
        var request = call.HttpContext.Request;
        var settings = call.Route.Settings;
        var json = Json(settings.Codecs);
        if (request.ContentType is not { } contentType || settings.Codecs.MatchContentType(contentType).Codec != json.Codec)
        {
            throw CallRejectedException.UnsupportedMediaType($"The Content-Type '{request.ContentType}' is not JSON; use application/json.", "application/json");
        }

        return call.Route.Kind == MethodType.Unary
            ? call.Route.Exchanges.Of(json.Codec, json, static (reader, type) => new UnaryJsonExchange(reader, type))
            : new LinesExchange(settings.Streams.Lines, json.Codec);
    }

    public override Task WriteErrorAsync(HttpContext context, CallFailure failure, WritableMediaType? errorType, MessageCodecs codecs) =>
        ErrorResultWriter.WriteAsync(context.Response, failure, Json(codecs));

    private static WritableMediaType Json(MessageCodecs codecs) => codecs.Canonical(CodecNames.Json);

    private static async ValueTask<IMessage> ReadJsonAsync(ProtoHttpServerCallContext call, MessageCodec reader, CancellationToken cancellationToken)
    {
        var settings = call.Route.Settings;
        using var body = await RequestBodyReader.ReadAsync(call.HttpContext, settings.Options.MaxRequestBodySize, settings.InPlaceBodyLimit, cancellationToken);
        var message = reader.Read(body.Data, call.Route.Descriptor.InputType);
        settings.Codecs.CheckRequiredFields(message);
        return message;
    }

    /// <summary>A unary call: JSON in, JSON out; shared by the route's calls.</summary>
    private sealed class UnaryJsonExchange(MessageCodec? reader, WritableMediaType? responseType) : UnaryExchange(reader, responseType)
    {
        public override ValueTask<IMessage> ReadMessageAsync(ProtoHttpServerCallContext call, CancellationToken cancellationToken) =>
            ReadJsonAsync(call, RequestReader!, cancellationToken);

        public override Task WriteMessageAsync(ProtoHttpServerCallContext call, IMessage message) =>
            ResponseWriter.WriteAsync(call.HttpContext.Response, StatusCodes.Status200OK, message, ResponseType!);
    }

    /// <summary>A server-streaming call: JSON in, JSON lines out.</summary>
    private sealed class LinesExchange(StreamMediaType lines, MessageCodec reader) : StreamExchange(lines, reader)
    {
        public override ValueTask<IMessage> ReadMessageAsync(ProtoHttpServerCallContext call, CancellationToken cancellationToken) =>
            ReadJsonAsync(call, RequestReader!, cancellationToken);

        protected override StreamResponseWriter CreateResponseStream(ProtoHttpServerCallContext call) =>
            StreamResponseWriter.For(call.HttpContext, ResponseStreamType, call.Route.Settings.Options.StreamKeepAliveInterval);
    }
}
