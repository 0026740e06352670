using Google.Protobuf;
using Grpc.Core;
using ProtoHttp.AspNetCore.Framing;
using ProtoHttp.Streaming;

namespace ProtoHttp.AspNetCore.Pipeline;

/// <summary>
/// One call's exchange in its protocol, as connect-go's <c>protocolHandler.NewConn</c> returns a conn: what
/// <see cref="CallProtocol.Accept"/> hands back once the request is the protocol's call. It knows how the request is
/// read (its reader, its framing, its compression), how the answer is written and in which type, and how the call
/// ends and fails; the lifecycle, <see cref="ProtoHttpServerCallContext"/> and <see cref="CallErrors"/> ask it and
/// decode nothing. What a protocol keeps per call lives in its own exchange type.
/// An exchange that holds nothing of one call (a unary call's reader and answer type) is made once per route and
/// shared (<see cref="UnaryExchange"/>), so the common small call allocates nothing for it; one that holds a stream, a
/// socket or a parsed type is made per call (<see cref="StreamExchange"/>).
/// </summary>
internal abstract class CallExchange
{
    /// <summary>The reader of the request body (or of the envelopes' payloads); null for an empty request.</summary>
    public virtual MessageCodec? RequestReader => null;

    /// <summary>The type a unary answer goes out in; null for a stream, or while the protocol has not chosen it.</summary>
    public virtual WritableMediaType? ResponseType => null;

    /// <summary>The framing and codec of a streaming answer.</summary>
    public virtual StreamMediaType? ResponseStreamType => null;

    /// <summary>The request stream of a client-streaming or bidirectional call, once opened.</summary>
    public virtual IRequestStream? RequestStream => null;

    /// <summary>The streaming answer, once opened: after its first byte a failure can only be told in its last record.</summary>
    public virtual StreamResponseWriter? ResponseStream => null;

    /// <summary>
    /// The type an error status and body go out in before the answer started: the unary answer's own type once chosen,
    /// a stream's codec's canonical type, else what <paramref name="route"/> forces; null where the request decides.
    /// </summary>
    public WritableMediaType? ErrorType(CallRoute route) =>
        ResponseType ?? (ResponseStreamType is { } stream ? route.Settings.Codecs.Canonical(stream.Codec) : route.ErrorType);

    /// <summary>
    /// Checks whose failures the answer already carries, run once the call holds the exchange and before its deadline
    /// starts (Connect's protocol version, once its stream's answer is open). None by default.
    /// </summary>
    /// <exception cref="Internal.CallRejectedException">The request is refused.</exception>
    public virtual void Begin(ProtoHttpServerCallContext call)
    {
    }

    /// <summary>Reads the one request message of a unary or server-streaming call, and checks its required fields.</summary>
    public abstract ValueTask<IMessage> ReadMessageAsync(ProtoHttpServerCallContext call, CancellationToken cancellationToken);

    /// <summary>Opens the request stream of a client-streaming or bidirectional call, which the service reads as messages arrive.</summary>
    public virtual IAsyncStreamReader<TRequest> OpenRequestStream<TRequest>(ProtoHttpServerCallContext call)
        where TRequest : class =>
        throw new NotSupportedException($"The {call.Route.Protocol.Name} protocol reads no request stream for {call.Route.Method.Name}.");

    /// <summary>Writes a unary call's answer, with the trailers the service set.</summary>
    public abstract Task WriteMessageAsync(ProtoHttpServerCallContext call, IMessage message);

    /// <summary>The writer of a streaming call's answer, in <see cref="ResponseStreamType"/>'s framing; the same writer each time.</summary>
    public virtual StreamResponseWriter OpenResponseStream(ProtoHttpServerCallContext call) =>
        throw new NotSupportedException($"The {call.Route.Protocol.Name} protocol writes no stream for {call.Route.Method.Name}.");

    /// <summary>
    /// Sends the headers the service wrote (<c>ServerCallContext.WriteResponseHeadersAsync</c>): by default as the
    /// response's headers, which must not have gone out yet.
    /// </summary>
    /// <exception cref="InvalidOperationException">The response has started.</exception>
    public virtual void WriteResponseHeaders(ProtoHttpServerCallContext call, Metadata headers) => AddToHttpHeaders(call, headers);

    /// <summary>
    /// Answers a failure the lifecycle decided (<see cref="CallErrors"/>): by default with a status and a body in the
    /// protocol's spelling (<see cref="CallProtocol.WriteErrorAsync"/>) in <see cref="ErrorType"/>.
    /// </summary>
    public virtual Task FailAsync(ProtoHttpServerCallContext call, CallFailure failure) =>
        CallErrors.AnswerAsync(call.HttpContext, failure, call.Route.Protocol, ErrorType(call.Route), call.Route.Settings.Codecs);

    /// <summary>Ends what the call opened (its streams) when the call is over; nothing by default.</summary>
    public virtual ValueTask EndAsync() => ValueTask.CompletedTask;

    /// <summary>Adds the service's headers to the response's HTTP headers.</summary>
    /// <exception cref="InvalidOperationException">The response has started.</exception>
    public static void AddToHttpHeaders(ProtoHttpServerCallContext call, Metadata headers)
    {
        var response = call.HttpContext.Response;
        if (response.HasStarted)
        {
            throw new InvalidOperationException("Response headers can only be written once, before the response.");
        }

        Internal.HeaderMetadata.AddToResponse(headers, response.Headers);
    }
}
