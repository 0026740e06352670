using Google.Protobuf;
using ProtoHttp.AspNetCore.Framing;
using ProtoHttp.AspNetCore.Internal;
using ProtoHttp.AspNetCore.Pipeline;

namespace ProtoHttp.AspNetCore.Protocols.GrpcWeb;

/// <summary>
/// A gRPC-Web call (docs/grpc-web.md, docs/protocol.md section 12): one message frame in the request's type, binary or
/// base64 text, and the answer in the same type as a frame per message and the trailers frame last. Its writer opens
/// when the call is accepted, for unary calls too, so every later failure goes in the trailers frame with status 200.
/// </summary>
internal sealed class GrpcWebExchange : StreamExchange
{
    private readonly GrpcWebMediaType _type;

    /// <param name="call">The accepted call.</param>
    /// <param name="type">What the request's <c>Content-Type</c> says: the codec, text mode, the answer's type.</param>
    public GrpcWebExchange(ProtoHttpServerCallContext call, GrpcWebMediaType type)
        : base(GrpcWebResponseWriter.StreamTypeOf(type), type.Codec)
    {
        _type = type;
        OpenResponseStream(call);
    }

    public override async ValueTask<IMessage> ReadMessageAsync(ProtoHttpServerCallContext call, CancellationToken cancellationToken)
    {
        var settings = call.Route.Settings;
        var message = await GrpcWebRequestReader.ReadAsync(call.HttpContext, _type, _type.Codec,
            call.Route.Descriptor.InputType, settings.Options.MaxRequestBodySize, settings.InPlaceBodyLimit, cancellationToken);
        settings.Codecs.CheckRequiredFields(message);
        return message;
    }

    protected override StreamResponseWriter CreateResponseStream(ProtoHttpServerCallContext call) =>
        new GrpcWebResponseWriter(call.HttpContext, _type, _type.Codec);

    /// <summary>
    /// Once the service has answered, its answer goes out whole, as the other protocols' unary answers do: a deadline
    /// that passes while it is written does not cut it off (only the client leaving does).
    /// </summary>
    protected override CancellationToken UnaryWriteToken(ProtoHttpServerCallContext call) => call.HttpContext.RequestAborted;

    /// <summary>Once accepted, a gRPC-Web call tells every failure in its trailers frame, with status 200.</summary>
    protected override Task EndFailedStreamAsync(ProtoHttpServerCallContext call, StreamResponseWriter stream, CallFailure failure) =>
        stream.EndAsync(new StreamOutcome(failure.Code, PrintableText.EscapeLoneSurrogates(failure.Text), failure.Trailers));
}
