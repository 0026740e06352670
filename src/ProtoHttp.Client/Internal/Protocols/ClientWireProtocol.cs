using Google.Protobuf;
using Google.Protobuf.Reflection;
using Grpc.Core;
using ProtoHttp.Client.Internal.Framing;
using ProtoHttp.Streaming;

namespace ProtoHttp.Client.Internal.Protocols;

/// <summary>
/// One protocol the typed client speaks, as connect-go's client protocols are parts and as the server's funnel asks its
/// <c>CallProtocol</c>: where a method lives, what a call's request says (its body, media types, deadline header), how
/// a unary answer and a response stream are read, and how a failure reads. The calls know no protocol; they ask their
/// part. Parts are found by name in <see cref="ClientProtocols"/>.
/// </summary>
internal abstract class ClientWireProtocol(MessageCodecs codecs, MessageCodec codec)
{
    public MessageCodecs Codecs { get; } = codecs;

    /// <summary>The codec requests are written and answers read in.</summary>
    public MessageCodec Codec { get; } = codec;

    /// <summary>The <c>Content-Type</c> of a unary request.</summary>
    public abstract string ContentType { get; }

    /// <summary>
    /// The type of a streaming call's request envelopes and of the stream asked for; <see langword="null"/> for a codec
    /// without one (XML). By default the envelope stream of the codec, <c>application/connect+{name}</c> (docs/protocol.md section 10).
    /// </summary>
    public virtual string? StreamContentType { get; } = codec.CanBeEnveloped ? StreamMediaTypes.EnvelopePrefix + codec.Name : null;

    /// <summary>How the protocol's response streams are framed and end.</summary>
    public abstract ResponseFraming Framing { get; }

    /// <summary>The header the deadline travels in.</summary>
    public abstract string TimeoutHeader { get; }

    /// <summary>Whether the protocol carries request streams (client-streaming and bidirectional calls).</summary>
    public virtual bool HasRequestStreams => true;

    /// <summary>
    /// Whether a server stream asks for event ids and resumes after a broken connection (ProtoHttp's extension of
    /// envelope streams, docs/protocol.md "Topics: streams that resume").
    /// </summary>
    public virtual bool ResumesStreams => true;

    /// <summary>The value of <see cref="TimeoutHeader"/> for a deadline <paramref name="milliseconds"/> away (at most 10 digits): the number itself by default.</summary>
    public virtual string TimeoutValue(long milliseconds) => milliseconds.ToString(System.Globalization.CultureInfo.InvariantCulture);

    /// <summary>The first segment of a method's path, before <c>/{Method}</c>.</summary>
    public abstract string PathOf(IMethod method, IReadOnlyList<ServiceDescriptor> services, MessageDescriptor request, MessageDescriptor response);

    /// <summary>The codec a unary answer of <paramref name="contentType"/> is read with, or <see langword="null"/> for none: by default the registry's for its media type.</summary>
    public virtual MessageCodec? ResponseCodec(string contentType) => ResponseReader.ReaderFor(contentType, Codecs);

    /// <summary>Adds what every request of the protocol says about itself.</summary>
    public virtual void PrepareCall(HttpRequestMessage request)
    {
    }

    /// <summary>Adds what a unary request says about the answer it wants.</summary>
    public virtual void PrepareUnary(HttpRequestMessage request)
    {
    }

    /// <summary>Adds what a streaming request says about the stream it wants.</summary>
    public virtual void PrepareStream(HttpRequestMessage request)
    {
    }

    /// <summary>The body of a unary request: the message in the codec, by default.</summary>
    public virtual HttpContent UnaryContent(IMessage message) => new MessageContent(message, Codec, ContentType);

    /// <summary>The body of a server-streaming call's one request: one envelope of <see cref="StreamContentType"/>, by default.</summary>
    public virtual HttpContent StreamRequestContent(IMessage message) => new MessageContent(message, Codec, StreamContentType!, enveloped: true);

    /// <summary>A unary answer's headers, as metadata.</summary>
    public virtual Metadata UnaryHeaders(HttpResponseMessage response) => HeaderMetadata.FromResponse(response, withTrailers: false);

    /// <summary>A unary answer's trailers, once its body has been read.</summary>
    public virtual Metadata UnaryTrailers(HttpResponseMessage response) => HeaderMetadata.FromResponse(response, withTrailers: true);

    /// <summary>
    /// Reads a unary answer whose headers have arrived: its message, given to the caller, and its trailers, given to
    /// <paramref name="outcome"/>. By default a 2xx body in a codec of the registry, anything else read as an error.
    /// </summary>
    /// <exception cref="RpcException">The call failed, or the answer is not a message.</exception>
    public virtual Task<IMessage> ReadUnaryAsync(HttpResponseMessage response, ClientMethod method, IUnaryOutcome outcome, CancellationToken cancellationToken) =>
        ResponseReader.ReadUnaryAsync(this, response, method, outcome, cancellationToken);

    /// <summary>
    /// Reads up to the start of a response stream whose headers have arrived and returns its reader. By default the
    /// answer must be a 2xx stream of the codec's envelopes; anything else is read as an error.
    /// </summary>
    /// <exception cref="RpcException">The call failed, or the answer is not the stream asked for.</exception>
    public virtual async ValueTask<ResponseEnvelopeReader> OpenResponseStreamAsync(
        HttpResponseMessage response, ClientMethod method, bool eventIds, CancellationToken cancellationToken)
    {
        if (!response.IsSuccessStatusCode)
        {
            throw await ReadErrorAsync(response, cancellationToken).ConfigureAwait(false);
        }

        var contentType = response.Content.Headers.ContentType?.ToString();
        if (StreamMediaTypes.EnvelopeCodec(contentType, Codecs) != Codec)
        {
            throw new RpcException(new Status(StatusCode.Internal,
                $"The response to {method.FullName} is not a stream of {StreamContentType} envelopes: the server answered {(int)response.StatusCode} with Content-Type '{contentType}'."));
        }

        var gzip = Framing.IsGzip(response, method.FullName);
        var body = await response.Content.ReadAsStreamAsync(cancellationToken).ConfigureAwait(false);
        return new ResponseEnvelopeReader(body, Framing, Codec, method.Settings.MaxResponseSize, gzip, eventIds);
    }

    /// <summary>The exception a non-2xx answer becomes.</summary>
    public abstract Task<RpcException> ReadErrorAsync(HttpResponseMessage response, CancellationToken cancellationToken);

    /// <summary>
    /// <paramref name="codec"/>, for a protocol that names its codec in its media types and frames its messages, so
    /// carries only codecs that can be enveloped (<see cref="MessageCodec.CanBeEnveloped"/>).
    /// </summary>
    /// <exception cref="InvalidOperationException">The codec cannot be enveloped.</exception>
    protected static MessageCodec RequireEnveloped(string protocol, MessageCodecs codecs, MessageCodec codec) => codec.CanBeEnveloped
        ? codec
        : throw new InvalidOperationException(
            $"{protocol} carries codecs that can be enveloped ({string.Join(", ", codecs.All.Where(c => c.CanBeEnveloped && c.CanWrite).Select(c => c.Name))}), not {codec.Name}.");
}
