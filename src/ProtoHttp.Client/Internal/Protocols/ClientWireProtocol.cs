using Google.Protobuf.Reflection;
using Grpc.Core;

namespace ProtoHttp.Client.Internal.Protocols;

/// <summary>
/// One protocol the typed client speaks, as connect-go's client protocols are parts: where a method lives, what a call's
/// request says, how metadata comes back and how a failure reads. The calls know no protocol; they ask their part.
/// Both protocols send the deadline as <see cref="TimeoutHeader"/> and frame streams in Connect envelopes of the codec's
/// <see cref="StreamContentType"/>.
/// </summary>
internal abstract class ClientWireProtocol(MessageCodecs codecs, MessageCodec codec)
{
    /// <summary>The header the deadline travels in, in milliseconds (docs/protocol.md section 6).</summary>
    public const string TimeoutHeader = "Connect-Timeout-Ms";

    public MessageCodecs Codecs { get; } = codecs;

    /// <summary>The codec requests are written and answers read in.</summary>
    public MessageCodec Codec { get; } = codec;

    /// <summary>The <c>Content-Type</c> of a unary request.</summary>
    public abstract string ContentType { get; }

    /// <summary>The envelope type streaming calls send and ask for; <see langword="null"/> for a codec without one (XML).</summary>
    public string? StreamContentType { get; } = codec.IsConnectCodec ? Streaming.StreamMediaTypes.EnvelopePrefix + codec.Name : null;

    /// <summary>The part for the options' protocol and format, the one place the public <see cref="ClientProtocol"/> is read.</summary>
    /// <exception cref="InvalidOperationException">The format cannot be sent (form), or not in that protocol (XML over Connect).</exception>
    public static ClientWireProtocol For(ClientProtocol protocol, MessageCodecs codecs, MessageFormat format)
    {
        var codec = codecs.Codec(format);
        if (!codec.CanWrite)
        {
            throw new InvalidOperationException("ProtoHttp clients cannot send Form: servers answer in protobuf, JSON or XML, so choose one of those.");
        }

        return protocol switch
        {
            ClientProtocol.Connect when !codec.IsConnectCodec =>
                throw new InvalidOperationException($"Connect carries protobuf or JSON, not {format}: choose {MessageFormat.Protobuf} or {MessageFormat.Json}."),
            ClientProtocol.Connect => new ConnectClientProtocol(codecs, codec),
            _ => new ProtoHttpClientProtocol(codecs, codec),
        };
    }

    /// <summary>The first segment of a method's path, before <c>/{Method}</c>.</summary>
    public abstract string PathOf(IMethod method, IReadOnlyList<ServiceDescriptor> services, MessageDescriptor request, MessageDescriptor response);

    /// <summary>Adds what every request of the protocol says about itself.</summary>
    public virtual void PrepareCall(HttpRequestMessage request)
    {
    }

    /// <summary>Adds what a unary request says about the answer it wants.</summary>
    public virtual void PrepareUnary(HttpRequestMessage request)
    {
    }

    /// <summary>Adds what a streaming request says about the stream it wants.</summary>
    public abstract void PrepareStream(HttpRequestMessage request);

    /// <summary>A unary answer's headers (<paramref name="trailers"/> false) or trailers, as metadata.</summary>
    public abstract Metadata UnaryMetadata(HttpResponseMessage response, bool trailers);

    /// <summary>The exception a non-2xx answer becomes.</summary>
    public abstract Task<RpcException> ReadErrorAsync(HttpResponseMessage response, CancellationToken cancellationToken);
}
