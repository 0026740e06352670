using Google.Protobuf;
using Microsoft.AspNetCore.Http;
using ProtoHttp.AspNetCore.Internal;
using ProtoHttp.AspNetCore.Pipeline;

namespace ProtoHttp.AspNetCore.Protocols.Connect;

/// <summary>
/// A Connect unary call (docs/connect.md): the request from a POST body in a Connect codec, gzipped or not, or from a
/// GET's query (<c>encoding</c>, <c>message</c>, <c>base64</c>, <c>compression</c>); the answer in the request's own
/// codec, with <c>trailer-</c> headers, gzipped when the client accepts it. The codec is known once the request is
/// read: the call then moves to the route's exchange for that answer type. Shared by the route's calls.
/// </summary>
internal sealed class ConnectUnaryExchange(WritableMediaType? responseType) : UnaryExchange(reader: null, responseType)
{
    /// <summary>Makes an exchange for <see cref="RouteExchanges.Of"/>.</summary>
    public static readonly Func<MessageCodec?, WritableMediaType?, UnaryExchange> Make = static (_, type) => new ConnectUnaryExchange(type);

    public override ValueTask<IMessage> ReadMessageAsync(ProtoHttpServerCallContext call, CancellationToken cancellationToken)
    {
        var request = call.HttpContext.Request;
        if (!HttpMethods.IsGet(request.Method))
        {
            return ReadBodyAsync(call, cancellationToken);
        }

        var settings = call.Route.Settings;
        var (message, codec) = ConnectGetRequest.Read(request.Query, settings.Codecs, call.Route.Descriptor.InputType, settings.Options.MaxRequestBodySize);
        settings.Codecs.CheckRequiredFields(message);
        Answer(call, codec);
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

        var type = ResponseType!;
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

    /// <summary>Moves the call to the route's exchange that answers in <paramref name="codec"/>, among the types built once for the service.</summary>
    private static void Answer(ProtoHttpServerCallContext call, MessageCodec codec)
    {
        // Every route of this protocol is a ConnectCallRoute: ConnectProtocol.MapEndpoints makes them.
        var types = ((ConnectCallRoute)call.Route).ResponseTypes;
        var answer = types[0];
        foreach (var type in types)
        {
            if (type.Codec == codec)
            {
                answer = type;
                break;
            }
        }

        call.Exchange = call.Route.Exchanges.Of(null, answer, Make);
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

        var gzip = ConnectCompression.IsGzip(request.Headers.ContentEncoding);
        var limit = settings.Options.MaxRequestBodySize;
        var descriptor = call.Route.Descriptor.InputType;
        using var body = await RequestBodyReader.ReadAsync(context, limit, settings.InPlaceBodyLimit, cancellationToken);
        var message = gzip ? GzipPayloads.ReadMessage(codec, body.Data, descriptor, limit) : codec.Read(body.Data, descriptor);
        settings.Codecs.CheckRequiredFields(message);
        Answer(call, codec);
        return message;
    }
}
