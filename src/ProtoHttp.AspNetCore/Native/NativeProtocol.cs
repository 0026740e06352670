using Google.Protobuf;
using Grpc.Core;
using Microsoft.AspNetCore.Builder;
using Microsoft.AspNetCore.Http;
using Microsoft.Extensions.DependencyInjection;
using Microsoft.Extensions.Logging;
using ProtoHttp.AspNetCore.Internal;
using ProtoHttp.AspNetCore.Internal.Caching;
using ProtoHttp.AspNetCore.Internal.Explorer;
using ProtoHttp.AspNetCore.Internal.Streaming;
using ProtoHttp.AspNetCore.Pipeline;
using ProtoHttp.Streaming;

namespace ProtoHttp.AspNetCore.Native;

/// <summary>
/// ProtoHttp's own protocol (docs/protocol.md sections 1-10) at <c>/{file}.proto/{Method}</c>: any format in, the
/// format <c>Accept</c> or a suffix names out, GET with the message in the query string, streams as events, lines or
/// envelopes, errors as an ErrorResult with the HTTP status that fits. Besides the methods' routes it maps the
/// service's <c>.proto</c> source and a 404 for any other path under the prefix.
/// </summary>
internal sealed class NativeProtocol : CallProtocol
{
    private NativeProtocol()
    {
    }

    /// <summary>The one instance: the protocol keeps no state; what differs per service is in <see cref="CallRoute.Settings"/>.</summary>
    public static NativeProtocol Instance { get; } = new();

    /// <summary>The suffixes of a unary method's routes and the type each forces (docs/protocol.md section 3).</summary>
    private static readonly (string Suffix, WritableMediaType? Type)[] UnarySuffixes =
    [
        ("", null),
        (".json", MediaTypes.Canonical(MessageFormat.Json)),
        (".xml", MediaTypes.Canonical(MessageFormat.Xml)),
        (".pb", MediaTypes.Canonical(MessageFormat.Protobuf)),
    ];

    /// <summary>
    /// The suffixes of a streaming method's routes (docs/protocol.md section 10): <c>.sse</c> and <c>.ndjson</c> name a
    /// stream; <c>.json</c> and <c>.pb</c> stand for their codec's stream, and XML has none.
    /// </summary>
    private static readonly (string Suffix, StreamMediaType? Type)[] StreamSuffixes =
    [
        ("", null),
        (".sse", StreamMediaTypes.Events),
        (".ndjson", StreamMediaTypes.Lines),
        (".json", StreamMediaTypes.Lines),
        (".pb", StreamMediaTypes.Proto),
        (".xml", null),
    ];

    private static readonly string[] StreamTypes = [StreamMediaTypes.EventStream, StreamMediaTypes.Ndjson, StreamMediaTypes.ConnectProto, StreamMediaTypes.ConnectJson];

    private static readonly string[] EnvelopeTypes = [StreamMediaTypes.ConnectProto, StreamMediaTypes.ConnectJson];

    public override ProtoHttpProtocol Name => ProtoHttpProtocol.ProtoHttp;

    /// <summary>OpenTelemetry has no name for ProtoHttp's own protocol.</summary>
    public override string TelemetrySystem => "protohttp";

    public override KeyValuePair<string, object?>? StatusTag(StatusCode code) => new("rpc.grpc.status_code", (int)code);

    public override void MapEndpoints(ServiceEndpoints service)
    {
        var settings = service.Settings;
        var unknown = new UnknownMethodHandler(settings.Codecs, settings.Logger);
        var readable = MediaTypes.AcceptPost.Split(", ");
        foreach (var method in service.Methods)
        {
            var descriptor = method.Descriptor;
            var allowsGet = GetVerbPolicy.Allows(descriptor, settings.RestrictGet);
            var routes = method.Method.Type == MethodType.Unary
                ? UnarySuffixes.Select(s => new CallRoute
                {
                    Protocol = this, Method = method.Method, Descriptor = descriptor, Settings = settings,
                    Pattern = $"{service.Prefix}/{method.Name}{s.Suffix}", Suffix = s.Suffix, AllowsGet = allowsGet,
                    ForcedType = s.Type, ErrorType = s.Type,
                    Reads = readable, Writes = s.Type is { } type ? [type.MediaType] : [.. MediaTypes.Writable.Select(t => t.MediaType)],
                })
                : StreamSuffixes.Select(s => new CallRoute
                {
                    Protocol = this, Method = method.Method, Descriptor = descriptor, Settings = settings,
                    Pattern = $"{service.Prefix}/{method.Name}{s.Suffix}", Suffix = s.Suffix, AllowsGet = allowsGet,
                    ForcedStream = s.Type, ErrorType = s.Type is { } type ? MediaTypes.Canonical(type.Codec) : null,
                    SuffixWithoutStream = s.Suffix == ".xml" ? s.Suffix : null,
                    Reads = descriptor.IsClientStreaming ? EnvelopeTypes : [.. readable, .. EnvelopeTypes],
                    Writes = s.Type is { } type2 ? [type2.ContentType] : s.Suffix == ".xml" ? [] : StreamTypes,
                });
            foreach (var route in routes)
            {
                var handler = method.Handler(route);
                var tail = $"/{method.Name}{route.Suffix}";
                // Routing matches paths case-insensitively; proto method names are exact, for every kind of method.
                RequestDelegate exact = context => context.Request.Path.Value!.EndsWith(tail, StringComparison.Ordinal)
                    ? handler(context)
                    : unknown.HandleAsync(context);
                service.MapMethod(method, route, exact, "ProtoHttp " + route.Pattern);
            }
        }

        var name = service.Service.Descriptor.FullName;
        service.MethodEndpoints.Add(service.Endpoints.Map($"{service.Prefix}/{{**{UnknownMethodHandler.PathParameter}}}", unknown.HandleAsync)
            .WithDisplayName($"ProtoHttp {name} unknown method")
            .WithMetadata([.. service.ServiceMetadata])
            .WithMetadata(new EndpointErrorWriter(name, settings.Logger, settings.Codecs, this, errorType: null)));

        if (settings.Options.ServeProtoFile)
        {
            var model = service.Service;
            var source = ProtoFileHandler.Load(model.FileName, service.ServiceType.Assembly, model.BindType.Assembly);
            var pages = service.Endpoints.ServiceProvider.GetRequiredService<ExplorerPages>();
            service.ProtoFile = service.Endpoints.Map(service.Prefix, new ProtoFileHandler(source, model.Descriptor.File, settings.Codecs, pages, new ConditionalGet(settings.Options.CacheControl), settings.Logger).HandleAsync)
                .WithDisplayName($"ProtoHttp {model.FileName} source")
                .WithMetadata(new EndpointErrorWriter(service.Prefix, settings.Logger, settings.Codecs, this, errorType: null))
                .WithMetadata(model.Descriptor.File); // tells the explorer the file's page is served here
            ProtoHttpOutputCachePolicy.AddTo(service.ProtoFile, streaming: false);
        }
    }

    public override void Accept(ProtoHttpServerCallContext call)
    {
        var context = call.HttpContext;
        context.Response.Headers.Vary = "Accept";
        call.ErrorType = call.Route.ErrorType;
        switch (call.Route.Kind)
        {
            case MethodType.Unary:
                AcceptUnary(call);
                break;
            case MethodType.ServerStreaming:
                AcceptServerStream(call);
                break;
            default:
                AcceptRequestStream(call);
                break;
        }
    }

    public override ValueTask<IMessage> ReadMessageAsync(ProtoHttpServerCallContext call, CancellationToken cancellationToken)
    {
        if (call.RequestEnvelope is not null)
        {
            return SingleEnvelope.ReadAsync(call, cancellationToken);
        }

        var request = call.HttpContext.Request;
        var descriptor = call.Route.Descriptor.InputType;
        if (!HttpMethods.IsGet(request.Method))
        {
            return MessageRequestReader.ReadBodyAsync(call.HttpContext, call.RequestReader, descriptor, call.Route.Settings, cancellationToken);
        }

        var message = MessageRequestReader.ReadQuery(request, call.RequestReader, descriptor);
        call.Route.Settings.Codecs.CheckRequiredFields(message);
        return ValueTask.FromResult(message);
    }

    public override Task WriteMessageAsync(ProtoHttpServerCallContext call, IMessage message)
    {
        var response = call.HttpContext.Response;
        if (call.TrailersOrNull is { } trailers)
        {
            // Trailers of a body whose length is known go out as headers (docs/protocol.md section 6).
            HeaderMetadata.AddToResponse(trailers, response.Headers);
        }

        var conditional = HttpMethods.IsGet(call.HttpContext.Request.Method) ? call.Route.ConditionalGet : null;
        return ResponseWriter.WriteAsync(response, StatusCodes.Status200OK, message, call.ResponseType!, call.Route.Settings.Codecs, conditional);
    }

    public override StreamResponseWriter OpenResponseStream(ProtoHttpServerCallContext call) =>
        StreamResponseWriter.For(call.HttpContext, call.ResponseStreamType!, call.Route.Settings.Codecs, call.Route.Settings.Options.StreamKeepAliveInterval);

    public override Task WriteErrorAsync(HttpContext context, CallFailure failure, WritableMediaType? errorType, MessageCodecs codecs)
    {
        var response = context.Response;
        response.Headers.Vary = "Accept";
        if (failure.Trailers is { } trailers)
        {
            HeaderMetadata.AddToResponse(trailers, response.Headers);
        }

        var type = failure.InJson ? MediaTypes.Canonical(MessageFormat.Json) : errorType ?? ErrorFormat.Choose(context.Request, forced: null);
        var text = failure.Text;
        if (type.Format == MessageFormat.Xml)
        {
            // A detail or a quoted input may hold what XML cannot carry (a NUL, a bell); the error keeps the format the
            // client asked for, as every other answer does, with U+FFFD in those places.
            text = PrintableText.ReplaceUnwritableInXml(text);
        }

        var error = new ErrorResult { Code = StatusMapping.ToCodeName(failure.Code), ErrorText = text };
        return ResponseWriter.WriteAsync(response, failure.HttpStatus, error, type, codecs);
    }

    /// <summary>Answers a refusal on an endpoint of the protocol that is no call (an unknown method, a verb on the <c>.proto</c> source).</summary>
    public static Task RefuseAsync(HttpContext context, CallRejectedException rejection, string name, ILogger logger, MessageCodecs codecs)
    {
        ProtoHttpLog.CallRejected(logger, name, rejection.HttpStatus, rejection.Message);
        return CallErrors.AnswerAsync(context, new CallFailure(rejection.HttpStatus, rejection.Code, rejection.Message, rejection.Hint), Instance, errorType: null, codecs);
    }

    private static void AcceptUnary(ProtoHttpServerCallContext call)
    {
        var request = call.HttpContext.Request;
        var route = call.Route;
        var codecs = route.Settings.Codecs;
        var isGet = HttpMethods.IsGet(request.Method);
        if (isGet ? !route.AllowsGet : !HttpMethods.IsPost(request.Method))
        {
            throw CallRejectedException.MethodNotAllowed(request.Method, route.AllowsGet ? "GET, POST" : "POST");
        }

        var (reader, ownFormat) = isGet ? MessageRequestReader.ForQuery(codecs) : MessageRequestReader.ForBody(request, codecs);
        var responseType = route.ForcedType ?? AcceptNegotiator.Negotiate(request.Headers.Accept, ownFormat);
        if (responseType is null || codecs.Writer(responseType.Format) is null)
        {
            call.ErrorType = MediaTypes.Canonical(MessageFormat.Json);
            throw CallRejectedException.NotAcceptable();
        }

        call.RequestReader = reader;
        call.ResponseType = responseType;
        call.ErrorType = responseType;
        ProtoHttpLog.FormatChosen(route.Settings.Logger, route.Method.Name, reader?.Format, responseType.ContentType);
    }

    /// <summary>
    /// A server-streaming request: as for a unary call (a body in any format, or GET with the query string) or as one
    /// envelope; its own stream format is events for a browser's address bar, envelopes for protobuf, else lines.
    /// </summary>
    private static void AcceptServerStream(ProtoHttpServerCallContext call)
    {
        var request = call.HttpContext.Request;
        var route = call.Route;
        var codecs = route.Settings.Codecs;
        if (HttpMethods.IsGet(request.Method) && route.AllowsGet)
        {
            // A browser's address bar must show the stream as text it can read as it comes: events, not a download.
            AcceptStream(call, MessageRequestReader.ForQuery(codecs).Reader, AcceptsHtml(request) ? StreamFormat.Events : StreamFormat.Lines);
            return;
        }

        if (!HttpMethods.IsPost(request.Method))
        {
            throw CallRejectedException.MethodNotAllowed(request.Method, route.AllowsGet ? "GET, POST" : "POST");
        }

        if (StreamMediaTypes.EnvelopeType(request.ContentType) is { } envelope)
        {
            call.RequestEnvelope = envelope;
            AcceptStream(call, codecs.Reader(envelope.Codec), envelope.Format);
            return;
        }

        var (reader, ownFormat) = MessageRequestReader.ForBody(request, codecs);
        AcceptStream(call, reader, ownFormat == MessageFormat.Protobuf ? StreamFormat.ConnectProto : StreamFormat.Lines);
    }

    /// <summary>The request of a client-streaming or bidirectional call: POST with a body of envelopes, read for as long as the call lasts.</summary>
    private static void AcceptRequestStream(ProtoHttpServerCallContext call)
    {
        var request = call.HttpContext.Request;
        if (!HttpMethods.IsPost(request.Method))
        {
            throw CallRejectedException.MethodNotAllowed(request.Method, "POST");
        }

        if (StreamMediaTypes.EnvelopeType(request.ContentType) is not { } envelope)
        {
            var named = string.IsNullOrEmpty(request.ContentType) ? "The request has no Content-Type" : $"The Content-Type '{request.ContentType}' is not an envelope stream";
            throw new CallRejectedException(StatusCodes.Status415UnsupportedMediaType, StatusCode.InvalidArgument,
                $"{named}; a client-streaming or bidirectional method reads {StreamMediaTypes.EnvelopeTypes}.")
            {
                Hint = new("Accept-Post", StreamMediaTypes.EnvelopeTypes),
            };
        }

        call.RequestEnvelope = envelope;
        AcceptStream(call, call.Route.Settings.Codecs.Reader(envelope.Codec), envelope.Format);
    }

    private static void AcceptStream(ProtoHttpServerCallContext call, IMessageReader? reader, StreamFormat ownFormat)
    {
        var route = call.Route;
        if (route.SuffixWithoutStream is { } suffix)
        {
            throw new CallRejectedException(StatusCodes.Status406NotAcceptable, StatusCode.InvalidArgument,
                $"The {suffix} suffix names a format with no stream form; a streaming method answers {StreamAcceptNegotiator.WritableList}.");
        }

        var type = route.ForcedStream ?? StreamAcceptNegotiator.Negotiate(call.HttpContext.Request.Headers.Accept, ownFormat);
        if (type is null)
        {
            call.ErrorType = MediaTypes.Canonical(MessageFormat.Json);
            throw new CallRejectedException(StatusCodes.Status406NotAcceptable, StatusCode.InvalidArgument,
                $"None of the media types in the Accept header is a stream format; a streaming method answers {StreamAcceptNegotiator.WritableList}.");
        }

        call.RequestReader = reader;
        call.ResponseStreamType = type;
        // Before a stream starts, its errors are unary answers in the stream's codec.
        call.ErrorType = MediaTypes.Canonical(type.Codec);
        ProtoHttpLog.FormatChosen(route.Settings.Logger, route.Method.Name, reader?.Format, type.ContentType);
    }

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
