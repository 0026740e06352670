using Google.Protobuf;
using ProtoHttp.AspNetCore.Framing;
using ProtoHttp.AspNetCore.Pipeline;
using ProtoHttp.Streaming;

namespace ProtoHttp.AspNetCore.Protocols.Native;

/// <summary>
/// A streaming call of ProtoHttp's own protocol (docs/protocol.md section 10): the request as a unary call's (body or
/// query) or in envelopes, the answer as events, lines or envelopes; a failure before the first message is answered
/// as a unary call's, in the stream's codec.
/// </summary>
/// <param name="responseStreamType">The answer's framing and codec.</param>
/// <param name="reader">The request's reader.</param>
/// <param name="requestEnvelope">The envelope stream the request body is in; null for a body in one message's format, or a GET.</param>
internal sealed class NativeStreamExchange(StreamMediaType responseStreamType, MessageCodec? reader, StreamMediaType? requestEnvelope)
    : StreamExchange(responseStreamType, reader)
{
    public override ValueTask<IMessage> ReadMessageAsync(ProtoHttpServerCallContext call, CancellationToken cancellationToken) =>
        requestEnvelope is not null
            ? SingleEnvelope.ReadAsync(call, RequestReader!, compressionAgreed: false, cancellationToken)
            : NativeUnaryExchange.ReadAsync(call, RequestReader, cancellationToken);

    protected override StreamResponseWriter CreateResponseStream(ProtoHttpServerCallContext call) =>
        StreamResponseWriter.For(call.HttpContext, ResponseStreamType, call.Route.Settings.Options.StreamKeepAliveInterval);

    protected override IRequestStream CreateRequestStream<TRequest>(ProtoHttpServerCallContext call) =>
        EnvelopeStreamReader<TRequest>.Open(call, RequestReader!, compressionAgreed: false);
}
