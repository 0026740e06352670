using Google.Protobuf;
using ProtoHttp.AspNetCore.Pipeline;

namespace ProtoHttp.AspNetCore.Protocols.Rest;

/// <summary>A unary REST call (docs/rest.md): the request from body, path and query, the answer in the negotiated type. Shared by the route's calls.</summary>
internal sealed class RestUnaryExchange(MessageCodec? reader, WritableMediaType? responseType) : UnaryExchange(reader, responseType)
{
    /// <summary>Makes an exchange for <see cref="RouteExchanges.Of"/>.</summary>
    public static readonly Func<MessageCodec?, WritableMediaType?, UnaryExchange> Make = static (reader, type) => new RestUnaryExchange(reader, type);

    public override ValueTask<IMessage> ReadMessageAsync(ProtoHttpServerCallContext call, CancellationToken cancellationToken) =>
        RestProtocol.ReadMessageAsync(call, cancellationToken);

    public override Task WriteMessageAsync(ProtoHttpServerCallContext call, IMessage message) =>
        RestProtocol.WriteMessageAsync(call, message, ResponseType!);
}
