using Google.Protobuf;
using Grpc.Core;
using Microsoft.AspNetCore.Http;
using ProtoHttp.AspNetCore.Framing;

namespace ProtoHttp.AspNetCore.Pipeline;

/// <summary>
/// A wire protocol the call lifecycle serves (docs/architecture.md), as connect-go's <c>protocolHandler</c>: which
/// endpoints it maps for a service and what each claims (verbs, content types, path), how a deadline arrives, how a
/// request message or stream is read, how a message, an error, the trailers and the end of a stream are written.
/// <see cref="ServerCallHandler{TService, TRequest, TResponse}"/> runs the same lifecycle for every protocol; nothing
/// generic knows which protocols exist. Registered in DI; one instance serves every service.
/// </summary>
internal abstract class CallProtocol
{
    /// <summary>
    /// The protocol's name (<see cref="ProtocolNames"/> for the built-in ones): what the endpoints'
    /// <see cref="ProtoHttpMethodMetadata.Protocol"/> says they answer, and what <see cref="ProtoHttpOptions.DisabledProtocols"/> turns off.
    /// </summary>
    public abstract string Name { get; }

    /// <summary>The <c>rpc.system</c> of the calls' telemetry.</summary>
    public abstract string TelemetrySystem { get; }

    /// <summary>How a request envelope's faults are answered (envelope streams are Connect's framing, shared by several protocols).</summary>
    public virtual EnvelopeRules Envelopes => EnvelopeRules.Plain;

    /// <summary>The status attribute of a call's telemetry, or <see langword="null"/> for none (the protocol's convention for success).</summary>
    public abstract KeyValuePair<string, object?>? StatusTag(StatusCode code);

    /// <summary>Maps the protocol's endpoints for one service: a route per method it serves, and any of the service's own.</summary>
    public abstract void MapEndpoints(ServiceEndpoints service);

    /// <summary>
    /// Checks that the request is a call this endpoint takes (verb, transport, media types, protocol headers) and decides
    /// how it is read and answered, on <paramref name="call"/>: <see cref="ProtoHttpServerCallContext.RequestReader"/>,
    /// <see cref="ProtoHttpServerCallContext.ResponseType"/> or <see cref="ProtoHttpServerCallContext.ResponseStreamType"/>,
    /// from which <see cref="ProtoHttpServerCallContext.ErrorType"/> follows. Runs before the deadline starts.
    /// </summary>
    /// <exception cref="Internal.CallRejectedException">The request is not such a call (405, 406, 415, 505...).</exception>
    public abstract void Accept(ProtoHttpServerCallContext call);

    /// <summary>The timeout the request asks for, in the protocol's own header, or <see langword="null"/> for none.</summary>
    /// <exception cref="Internal.CallRejectedException">The header is malformed (400).</exception>
    public abstract TimeSpan? ReadTimeout(HttpRequest request);

    /// <summary>
    /// Opens the request stream of a client-streaming or bidirectional call, which the service reads as messages arrive.
    /// By default envelopes in the request body (<see cref="EnvelopeStreamReader{TRequest}"/>), as the protocol set
    /// <see cref="ProtoHttpServerCallContext.RequestEnvelope"/> in <see cref="Accept"/>; a protocol whose messages come
    /// otherwise (a WebSocket's) reads them its own way.
    /// </summary>
    public virtual IAsyncStreamReader<TRequest> OpenRequestStream<TRequest>(ProtoHttpServerCallContext call)
        where TRequest : class =>
        EnvelopeStreamReader<TRequest>.Open(call);

    /// <summary>
    /// Sends the headers the service wrote (<c>ServerCallContext.WriteResponseHeadersAsync</c>): by default as the
    /// response's headers, which must not have gone out yet.
    /// </summary>
    /// <exception cref="InvalidOperationException">The response has started.</exception>
    public virtual void WriteResponseHeaders(ProtoHttpServerCallContext call, Metadata headers)
    {
        var response = call.HttpContext.Response;
        if (response.HasStarted)
        {
            throw new InvalidOperationException("Response headers can only be written once, before the response.");
        }

        Internal.HeaderMetadata.AddToResponse(headers, response.Headers);
    }

    /// <summary>Reads the one request message of a unary or server-streaming call, and checks its required fields.</summary>
    public abstract ValueTask<IMessage> ReadMessageAsync(ProtoHttpServerCallContext call, CancellationToken cancellationToken);

    /// <summary>Writes a unary call's answer, with the trailers the service set.</summary>
    public abstract Task WriteMessageAsync(ProtoHttpServerCallContext call, IMessage message);

    /// <summary>The writer of a streaming call's answer in <see cref="ProtoHttpServerCallContext.ResponseStreamType"/>'s framing.</summary>
    public abstract StreamResponseWriter OpenResponseStream(ProtoHttpServerCallContext call);

    /// <summary>
    /// Answers a failure with a status and a body, before anything else went out; the hint header and the escaping of
    /// the text are done. <paramref name="errorType"/>: the format chosen so far (null where the request decides).
    /// Also answers refusals made before the endpoint ran (authorization, rate limiting), without a call.
    /// </summary>
    public abstract Task WriteErrorAsync(HttpContext context, CallFailure failure, WritableMediaType? errorType, MessageCodecs codecs);

    /// <summary>
    /// Ends a streaming call that failed once its response stream was open. By default a failure before the first
    /// message answers as a unary call does (<see cref="CallErrors.AnswerAsync"/>), and after it in the stream's last record.
    /// </summary>
    public virtual Task EndFailedStreamAsync(ProtoHttpServerCallContext call, StreamResponseWriter stream, CallFailure failure) =>
        stream.EndAsync(new StreamOutcome(failure.Code, failure.Text, failure.Trailers),
            unstarted: () => CallErrors.AnswerAsync(call.HttpContext, failure, this, call.ErrorType, call.Route.Settings.Codecs));
}
