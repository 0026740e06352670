using Google.Protobuf;
using ProtoHttp.AspNetCore.Framing;
using ProtoHttp.AspNetCore.Pipeline;
using ProtoHttp.Streaming;

namespace ProtoHttp.AspNetCore.Protocols.Connect;

/// <summary>
/// A Connect streaming call (docs/connect.md): envelopes of the request's codec both ways, gzip where agreed. Its answer
/// opens as soon as the call is accepted, so every later failure, the protocol version's included, is told in the
/// end-stream envelope with status 200, as Connect's streaming protocol says (only the media type, verb and HTTP
/// version are refused by status).
/// </summary>
/// <param name="envelope">The request's envelope stream, which the answer's is too.</param>
internal sealed class ConnectStreamExchange(StreamMediaType envelope) : StreamExchange(envelope, envelope.Codec)
{
    private bool _requestCompressed;

    public override void Begin(ProtoHttpServerCallContext call)
    {
        OpenResponseStream(call);
        var request = call.HttpContext.Request;
        ConnectHeaders.CheckProtocolVersion(request);
        _requestCompressed = ConnectCompression.IsGzip(request.Headers[ConnectStreamHeaders.ContentEncoding]);
    }

    public override ValueTask<IMessage> ReadMessageAsync(ProtoHttpServerCallContext call, CancellationToken cancellationToken) =>
        SingleEnvelope.ReadAsync(call, RequestReader!, _requestCompressed, cancellationToken);

    protected override IRequestStream CreateRequestStream<TRequest>(ProtoHttpServerCallContext call) =>
        EnvelopeStreamReader<TRequest>.Open(call, RequestReader!, _requestCompressed);

    /// <summary>
    /// The envelopes of a Connect stream, gzipped from <c>ConnectCompressionMinSize</c> bytes on when the client accepts
    /// gzip (<c>Connect-Accept-Encoding</c>, or without it, a gzipped request); the response says so, and that gzip is
    /// what this server reads.
    /// </summary>
    protected override StreamResponseWriter CreateResponseStream(ProtoHttpServerCallContext call)
    {
        var context = call.HttpContext;
        var headers = context.Request.Headers;
        var gzip = ConnectCompression.AnswersGzip(headers[ConnectStreamHeaders.AcceptEncoding], headers[ConnectStreamHeaders.ContentEncoding]);
        var responseHeaders = context.Response.Headers;
        responseHeaders[ConnectStreamHeaders.AcceptEncoding] = ConnectCompression.Gzip;
        if (gzip)
        {
            responseHeaders[ConnectStreamHeaders.ContentEncoding] = ConnectCompression.Gzip;
        }

        var type = ResponseStreamType;
        return new EnvelopeStreamWriter(context, type, type.Codec)
        {
            GzipMinSize = gzip ? call.Route.Settings.Options.ConnectCompressionMinSize : null,
            WritesEventIds = headers.ContainsKey(Envelope.EventIdsHeader),
        };
    }

    /// <summary>Once accepted, a Connect stream tells every failure in its end-stream envelope, with status 200.</summary>
    protected override Task EndFailedStreamAsync(ProtoHttpServerCallContext call, StreamResponseWriter stream, CallFailure failure) =>
        stream.EndAsync(new StreamOutcome(failure.Code, failure.Text, failure.Trailers));
}
