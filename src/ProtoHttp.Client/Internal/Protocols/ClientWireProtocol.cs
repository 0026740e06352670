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
    public string? StreamContentType { get; } = codec.CanBeEnveloped ? Streaming.StreamMediaTypes.EnvelopePrefix + codec.Name : null;

    /// <summary>
    /// The client's protocol parts by name (<see cref="ProtoHttpClientOptions.Protocol"/>), as connect-go's client
    /// finds its <c>protocolClient</c>: adding a protocol to the client is a part and a line here.
    /// </summary>
    private static readonly Dictionary<string, Func<MessageCodecs, MessageCodec, ClientWireProtocol>> Parts = new(StringComparer.OrdinalIgnoreCase)
    {
        [ProtocolNames.ProtoHttp] = static (codecs, codec) => new ProtoHttpClientProtocol(codecs, codec),
        [ProtocolNames.Connect] = static (codecs, codec) => new ConnectClientProtocol(codecs, codec),
    };

    /// <summary>The part for the options' protocol, writing in the codec the options name, both found by name.</summary>
    /// <exception cref="InvalidOperationException">
    /// No protocol or codec has that name, the codec cannot be sent (form), or not in that protocol (XML over Connect).
    /// </exception>
    public static ClientWireProtocol For(string protocol, MessageCodecs codecs, string codecName)
    {
        ArgumentNullException.ThrowIfNull(protocol);
        ArgumentNullException.ThrowIfNull(codecName);
        if (!Parts.TryGetValue(protocol, out var part))
        {
            throw new InvalidOperationException(
                $"ProtoHttpClientOptions.Protocol is '{protocol}', which the ProtoHttp client does not speak; choose {string.Join(" or ", Parts.Keys)}.");
        }

        var codec = codecs.Find(codecName)
            ?? throw new InvalidOperationException(
                $"ProtoHttpClientOptions.Codec is '{codecName}', which no codec is called; the codecs are {string.Join(", ", codecs.All.Where(c => c.CanWrite).Select(c => c.Name))}, "
                + "and an app's own can be added to ProtoHttpClientOptions.Codecs.");
        if (!codec.CanWrite)
        {
            throw new InvalidOperationException($"ProtoHttp clients cannot send {codec.Name}, which is read only: choose a codec that writes, such as {CodecNames.Protobuf} or {CodecNames.Json}.");
        }

        return part(codecs, codec);
    }

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
    public abstract void PrepareStream(HttpRequestMessage request);

    /// <summary>A unary answer's headers (<paramref name="trailers"/> false) or trailers, as metadata.</summary>
    public abstract Metadata UnaryMetadata(HttpResponseMessage response, bool trailers);

    /// <summary>The exception a non-2xx answer becomes.</summary>
    public abstract Task<RpcException> ReadErrorAsync(HttpResponseMessage response, CancellationToken cancellationToken);
}
