using Google.Protobuf;
using Grpc.Core;
using Microsoft.AspNetCore.Builder;
using Microsoft.AspNetCore.Http;
using Microsoft.Extensions.DependencyInjection;
using ProtoHttp.AspNetCore.Caching;
using ProtoHttp.AspNetCore.Explorer;
using ProtoHttp.AspNetCore.Framing;
using ProtoHttp.AspNetCore.Internal;
using ProtoHttp.AspNetCore.Invocation;
using ProtoHttp.AspNetCore.Negotiation;
using ProtoHttp.AspNetCore.Pipeline;
using ProtoHttp.Streaming;

namespace ProtoHttp.AspNetCore.Protocols.Native;

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


    public override string Name => ProtocolNames.ProtoHttp;

    /// <summary>A body's type (protobuf, XML, a stream's envelopes are not safelisted) and the deadline (docs/protocol.md section 6).</summary>
    public override IReadOnlyList<string> CorsRequestHeaders { get; } = ["Content-Type", MillisecondsTimeout.HeaderName];

    /// <summary><c>Connect-Timeout-Ms</c>: ProtoHttp's own protocol takes Connect's header (docs/protocol.md section 6).</summary>
    public override TimeSpan? ReadTimeout(HttpRequest request) => MillisecondsTimeout.Parse(request.Headers[MillisecondsTimeout.HeaderName]);

    /// <summary>OpenTelemetry has no name for ProtoHttp's own protocol.</summary>
    public override string TelemetrySystem => "protohttp";

    public override void MapEndpoints(ServiceEndpoints service)
    {
        var settings = service.Settings;
        var codecs = settings.Codecs;
        var unknown = new UnknownMethodHandler(settings.Codecs, settings.Logger);
        var readable = codecs.AcceptPost.Split(", ");
        string[] envelopeTypes = [.. codecs.All.Where(codec => codec.CanBeEnveloped).Select(codec => settings.Streams.Envelopes(codec).ContentType)];
        string[] streamTypes = [StreamMediaTypes.EventStream, StreamMediaTypes.Ndjson, .. envelopeTypes];
        var unarySuffixes = UnarySuffixes(codecs);
        var streamSuffixes = StreamSuffixes(settings);
        foreach (var method in service.Methods)
        {
            var descriptor = method.Descriptor;
            var allowsGet = GetVerbPolicy.Allows(descriptor, settings.RestrictGet);
            var routes = method.Method.Type == MethodType.Unary
                ? unarySuffixes.Select(s => new NativeRoute(this, method, service, $"{service.Prefix}/{method.Name}{s.Suffix}")
                {
                    Suffix = s.Suffix, AllowsGet = allowsGet,
                    ForcedType = s.Type, ErrorType = s.Type,
                    Reads = readable, Writes = s.Type is { } type ? [type.MediaType] : [.. codecs.Writable.Select(t => t.MediaType)],
                })
                : streamSuffixes.Select(s => new NativeRoute(this, method, service, $"{service.Prefix}/{method.Name}{s.Suffix}")
                {
                    Suffix = s.Suffix, AllowsGet = allowsGet,
                    ForcedStream = s.Type, ErrorType = s.Type is { } type ? codecs.Canonical(type.Codec) : null,
                    SuffixWithoutStream = s.WithoutStream ? s.Suffix : null,
                    Reads = descriptor.IsClientStreaming ? envelopeTypes : [.. readable, .. envelopeTypes],
                    Writes = s.Type is { } type2 ? [type2.ContentType] : s.WithoutStream ? [] : streamTypes,
                });
            foreach (CallRoute route in routes)
            {
                // Proto method names are exact, for every kind of method; the prefix is the app's, matched as routing does.
                var exact = ExactPath.Guard($"/{method.Name}{route.Suffix}", method.Handler(route), unknown.HandleAsync);
                service.MapMethod(method, route, exact, "ProtoHttp " + route.Pattern);
            }
        }

        var name = service.Service.Descriptor.FullName;
        service.MethodEndpoints.Add(service.Endpoints.Map($"{service.Prefix}/{{**{UnknownMethodHandler.PathParameter}}}", unknown.HandleAsync)
            .WithDisplayName($"ProtoHttp {name} unknown method")
            .WithMetadata([.. service.ServiceMetadata, UnknownMethodFallback.Instance])
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

    /// <summary>The suffixes of a unary method's routes and the type each forces (docs/protocol.md section 3): each writing codec's.</summary>
    private static (string Suffix, WritableMediaType? Type)[] UnarySuffixes(MessageCodecs codecs) =>
    [
        ("", null),
        .. codecs.All.Where(codec => codec is { CanWrite: true, Suffix: not null }).Select(codec => (codec.Suffix!, (WritableMediaType?)codecs.Canonical(codec))),
    ];

    /// <summary>
    /// The suffixes of a streaming method's routes (docs/protocol.md section 10): <c>.sse</c> and <c>.ndjson</c> name a
    /// stream; a codec's suffix stands for its codec's stream (JSON's lines, a Connect codec's envelopes), and a codec
    /// with neither (XML) has none.
    /// </summary>
    private static (string Suffix, StreamMediaType? Type, bool WithoutStream)[] StreamSuffixes(CallSettings settings)
    {
        var json = settings.Codecs.Codec(CodecNames.Json);
        return
        [
            ("", null, false),
            (".sse", settings.Streams.Events, false),
            (".ndjson", settings.Streams.Lines, false),
            .. settings.Codecs.All.Where(codec => codec is { CanWrite: true, Suffix: not null }).Select(codec =>
                codec == json ? (codec.Suffix!, settings.Streams.Lines, false)
                : codec.CanBeEnveloped ? (codec.Suffix!, settings.Streams.Envelopes(codec), false)
                : (codec.Suffix!, (StreamMediaType?)null, true)),
        ];
    }

    public override CallExchange Accept(ProtoHttpServerCallContext call)
    {
        call.HttpContext.Response.Headers.Vary = "Accept";
        return call.Route.Kind switch
        {
            MethodType.Unary => AcceptUnary(call),
            MethodType.ServerStreaming => AcceptServerStream(call),
            _ => AcceptRequestStream(call),
        };
    }

    /// <summary>ProtoHttp's ErrorResult in the negotiated format (<see cref="ErrorResultWriter"/>).</summary>
    public override Task WriteErrorAsync(HttpContext context, CallFailure failure, WritableMediaType? errorType, MessageCodecs codecs) =>
        ErrorResultWriter.WriteNegotiatedAsync(context, failure, errorType, codecs);

    private static UnaryExchange AcceptUnary(ProtoHttpServerCallContext call)
    {
        var request = call.HttpContext.Request;
        var route = call.Route;
        var codecs = route.Settings.Codecs;
        var (reader, own) = HttpMethods.IsGet(request.Method) ? MessageRequestReader.ForQuery(codecs) : MessageRequestReader.ForBody(request, codecs);
        var responseType = ((NativeRoute)route).ForcedType ?? AcceptNegotiator.Negotiate(codecs, request.Headers.Accept, own);
        if (responseType is null)
        {
            throw CallRejectedException.NotAcceptable(codecs);
        }

        return route.Exchanges.Of(reader, responseType, NativeUnaryExchange.Make);
    }

    /// <summary>
    /// A server-streaming request: as for a unary call (a body in any format, or GET with the query string) or as one
    /// envelope; its own stream format is events for a browser's address bar, envelopes for protobuf, else lines.
    /// </summary>
    private static NativeStreamExchange AcceptServerStream(ProtoHttpServerCallContext call)
    {
        var request = call.HttpContext.Request;
        var route = call.Route;
        var codecs = route.Settings.Codecs;
        if (HttpMethods.IsGet(request.Method))
        {
            // A browser's address bar must show the stream as text it can read as it comes: events, not a download.
            return AcceptStream(call, MessageRequestReader.ForQuery(codecs).Reader, AcceptsHtml(request) ? route.Settings.Streams.Events : route.Settings.Streams.Lines, null);
        }

        var streams = route.Settings.Streams;
        if (streams.EnvelopeType(request.ContentType, codecs) is { } envelope)
        {
            return AcceptStream(call, envelope.Codec, envelope, envelope);
        }

        // A body in a Connect codec asks for that codec's envelopes; any other, for lines.
        var (reader, own) = MessageRequestReader.ForBody(request, codecs);
        return AcceptStream(call, reader, own.CanBeEnveloped && own != streams.Lines.Codec ? streams.Envelopes(own) : streams.Lines, null);
    }

    /// <summary>The request of a client-streaming or bidirectional call: POST with a body of envelopes, read for as long as the call lasts.</summary>
    private static NativeStreamExchange AcceptRequestStream(ProtoHttpServerCallContext call)
    {
        var request = call.HttpContext.Request;
        var codecs = call.Route.Settings.Codecs;
        if (call.Route.Settings.Streams.EnvelopeType(request.ContentType, codecs) is not { } envelope)
        {
            var named = string.IsNullOrEmpty(request.ContentType) ? "The request has no Content-Type" : $"The Content-Type '{request.ContentType}' is not an envelope stream";
            var envelopeTypes = StreamMediaTypes.EnvelopeTypes(codecs);
            throw CallRejectedException.UnsupportedMediaType($"{named}; a client-streaming or bidirectional method reads {envelopeTypes}.", envelopeTypes);
        }

        return AcceptStream(call, envelope.Codec, envelope, envelope);
    }

    private static NativeStreamExchange AcceptStream(ProtoHttpServerCallContext call, MessageCodec? reader, StreamMediaType own, StreamMediaType? requestEnvelope)
    {
        // Every route of this protocol is a NativeRoute: MapEndpoints makes them.
        var route = (NativeRoute)call.Route;
        var streams = route.Settings.Streams;
        if (route.SuffixWithoutStream is { } suffix)
        {
            throw new CallRejectedException(StatusCodes.Status406NotAcceptable, StatusCode.InvalidArgument,
                $"The {suffix} suffix names a format with no stream form; a streaming method answers {streams.WritableList}.");
        }

        var type = route.ForcedStream ?? NegotiateStream(call.HttpContext.Request, streams, own);

        // Before a stream starts, its errors are unary answers in the stream's codec (CallExchange.ErrorType).
        return new NativeStreamExchange(type, reader, requestEnvelope);
    }

    /// <summary>
    /// The stream <c>Accept</c> asks for among events, lines and the codecs' envelopes, <paramref name="own"/> on a tie
    /// (docs/protocol.md section 10), or a 406 naming the stream formats. REST's server streams answer in these framings
    /// too (docs/protocol.md section 14), so they negotiate here.
    /// </summary>
    public static StreamMediaType NegotiateStream(HttpRequest request, StreamAcceptNegotiator streams, StreamMediaType own) =>
        streams.Negotiate(request.Headers.Accept, own)
        ?? throw new CallRejectedException(StatusCodes.Status406NotAcceptable, StatusCode.InvalidArgument,
            $"None of the media types in the Accept header is a stream format; a streaming method answers {streams.WritableList}.")
        {
            NoAcceptedFormat = true,
        };

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
