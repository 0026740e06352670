using Google.Protobuf;
using Microsoft.AspNetCore.Http;
using ProtoHttp.AspNetCore.Internal;
using ProtoHttp.AspNetCore.Pipeline;

namespace ProtoHttp.AspNetCore.Protocols.Native;

/// <summary>
/// A unary call of ProtoHttp's own protocol (docs/protocol.md sections 1-9): the request from the body in any format
/// or from the query string of a GET, the answer in the negotiated or suffix-forced type, with the service's trailers
/// as headers and GET answers conditional. Shared by the route's calls with the same reader and answer type.
/// </summary>
internal sealed class NativeUnaryExchange(MessageCodec? reader, WritableMediaType? responseType) : UnaryExchange(reader, responseType)
{
    /// <summary>Makes an exchange for <see cref="RouteExchanges.Of"/>.</summary>
    public static readonly Func<MessageCodec?, WritableMediaType?, UnaryExchange> Make = static (reader, type) => new NativeUnaryExchange(reader, type);

    public override ValueTask<IMessage> ReadMessageAsync(ProtoHttpServerCallContext call, CancellationToken cancellationToken) =>
        ReadAsync(call, RequestReader, cancellationToken);

    public override Task WriteMessageAsync(ProtoHttpServerCallContext call, IMessage message)
    {
        AddTrailersAsHeaders(call);
        return WriteAnswerAsync(call, message, ResponseType!);
    }

    /// <summary>
    /// The service's trailers, as headers: a unary answer's body has a known length (docs/protocol.md section 6). REST's
    /// answers carry them so too (section 14).
    /// </summary>
    public static void AddTrailersAsHeaders(ProtoHttpServerCallContext call)
    {
        if (call.TrailersOrNull is { } trailers)
        {
            HeaderMetadata.AddToResponse(trailers, call.HttpContext.Response.Headers);
        }
    }

    /// <summary>A 200 with <paramref name="message"/> in <paramref name="type"/>; a GET's answer conditional where the route makes it so (docs/protocol.md section 11).</summary>
    public static Task WriteAnswerAsync(ProtoHttpServerCallContext call, IMessage message, WritableMediaType type)
    {
        var conditional = HttpMethods.IsGet(call.HttpContext.Request.Method) ? call.Route.ConditionalGet : null;
        return ResponseWriter.WriteAsync(call.HttpContext.Response, StatusCodes.Status200OK, message, type, conditional);
    }

    /// <summary>The one request message from the body in <paramref name="reader"/>'s format, or from the query string of a GET.</summary>
    public static ValueTask<IMessage> ReadAsync(ProtoHttpServerCallContext call, MessageCodec? reader, CancellationToken cancellationToken)
    {
        var request = call.HttpContext.Request;
        var descriptor = call.Route.Descriptor.InputType;
        if (!HttpMethods.IsGet(request.Method))
        {
            return MessageRequestReader.ReadBodyAsync(call.HttpContext, reader, descriptor, call.Route.Settings, cancellationToken);
        }

        var message = MessageRequestReader.ReadQuery(request, reader, descriptor);
        call.Route.Settings.Codecs.CheckRequiredFields(message);
        return ValueTask.FromResult(message);
    }
}
