using Google.Protobuf;
using Grpc.Core;
using ProtoHttp.AspNetCore.Framing;
using ProtoHttp.Streaming;

namespace ProtoHttp.AspNetCore.Pipeline;

/// <summary>
/// The exchange of a call whose answer is a stream, or that opens one for a unary answer too (gRPC-Web's frames, a
/// WebSocket): made per call, it owns the streams it opens and ends them with the call. Once its answer has started,
/// a failure goes in the stream's last record; before, it is answered as a unary call would be (the default of
/// <see cref="EndFailedStreamAsync"/>, which a protocol whose streams always carry their outcome overrides).
/// </summary>
/// <param name="responseStreamType">The framing and codec of the answer.</param>
/// <param name="requestReader">The reader of the request body or of the envelopes' payloads; null for an empty request.</param>
internal abstract class StreamExchange(StreamMediaType responseStreamType, MessageCodec? requestReader) : CallExchange
{
    private StreamResponseWriter? _responses;
    private IRequestStream? _requests;

    public override MessageCodec? RequestReader => requestReader;

    public override StreamMediaType ResponseStreamType => responseStreamType;

    public override IRequestStream? RequestStream => _requests;

    public override StreamResponseWriter? ResponseStream => _responses;

    public sealed override StreamResponseWriter OpenResponseStream(ProtoHttpServerCallContext call) => _responses ??= CreateResponseStream(call);

    public sealed override IAsyncStreamReader<TRequest> OpenRequestStream<TRequest>(ProtoHttpServerCallContext call)
    {
        var requests = CreateRequestStream<TRequest>(call);
        _requests = requests;
        return (IAsyncStreamReader<TRequest>)requests;
    }

    /// <summary>A unary answer over the stream: its one message, then the last record with the service's trailers.</summary>
    public override async Task WriteMessageAsync(ProtoHttpServerCallContext call, IMessage message)
    {
        var stream = OpenResponseStream(call);
        await stream.WriteMessageAsync(message, UnaryWriteToken(call));
        await stream.EndAsync(StreamOutcome.Ok(call.TrailersOrNull));
    }

    public sealed override Task FailAsync(ProtoHttpServerCallContext call, CallFailure failure) =>
        _responses is { } stream ? EndFailedStreamAsync(call, stream, failure) : base.FailAsync(call, failure);

    public sealed override async ValueTask EndAsync()
    {
        if (_requests is { } requests)
        {
            await requests.StopAsync();
        }

        if (_responses is { } responses)
        {
            await responses.DisposeAsync();
        }
    }

    /// <summary>The writer of the answer in the protocol's framing; called once, by <see cref="OpenResponseStream"/>.</summary>
    protected abstract StreamResponseWriter CreateResponseStream(ProtoHttpServerCallContext call);

    /// <summary>
    /// The request stream of a client-streaming or bidirectional call; called once, by <see cref="OpenRequestStream{TRequest}"/>.
    /// The exchange keeps it, to end it and to ask it for the client's fault.
    /// </summary>
    protected virtual IRequestStream CreateRequestStream<TRequest>(ProtoHttpServerCallContext call)
        where TRequest : class =>
        throw new NotSupportedException($"The {call.Route.Protocol.Name} protocol reads no request stream for {call.Route.Method.Name}.");

    /// <summary>What a unary answer's write may be cancelled by: the call's token (its deadline) by default.</summary>
    protected virtual CancellationToken UnaryWriteToken(ProtoHttpServerCallContext call) => call.CancellationToken;

    /// <summary>
    /// Ends a call that failed once its stream was open. By default a failure before the first message answers as a
    /// unary call does, and after it in the stream's last record.
    /// </summary>
    protected virtual Task EndFailedStreamAsync(ProtoHttpServerCallContext call, StreamResponseWriter stream, CallFailure failure) =>
        stream.EndAsync(new StreamOutcome(failure.Code, failure.Text, failure.Trailers), unstarted: () => base.FailAsync(call, failure));
}
