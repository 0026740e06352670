using Google.Protobuf;
using ProtoHttp.AspNetCore.Framing;
using ProtoHttp.AspNetCore.Pipeline;
using ProtoHttp.Streaming;

namespace ProtoHttp.AspNetCore.Protocols.Rest;

/// <summary>A server-streaming REST call (docs/rest.md): the request from body, path and query, the answer in the framings of ProtoHttp's own routes.</summary>
internal sealed class RestStreamExchange(StreamMediaType responseStreamType, MessageCodec? reader) : StreamExchange(responseStreamType, reader)
{
    public override ValueTask<IMessage> ReadMessageAsync(ProtoHttpServerCallContext call, CancellationToken cancellationToken) =>
        RestProtocol.ReadMessageAsync(call, cancellationToken);

    protected override StreamResponseWriter CreateResponseStream(ProtoHttpServerCallContext call) =>
        RestProtocol.OpenResponseStream(call, ResponseStreamType);
}
