using Google.Protobuf.Reflection;
using Grpc.Core;
using ProtoHttp.Client.Internal.Framing;

namespace ProtoHttp.Client.Internal.Protocols.Native;

/// <summary>
/// ProtoHttp's own protocol (docs/protocol.md section 8): <c>POST {Address}/{file}.proto/{Method}</c> in the codec's
/// canonical type, the answer asked for with <c>Accept</c>, the deadline in <c>Connect-Timeout-Ms</c> (section 6),
/// trailers as headers, failures as an ErrorResult; streams are the codec's envelopes, never compressed (section 10).
/// </summary>
internal sealed class ProtoHttpClientProtocol(MessageCodecs codecs, MessageCodec codec) : ClientWireProtocol(codecs, codec)
{
    /// <summary>The header the deadline travels in, in milliseconds (docs/protocol.md section 6); calls over WebSocket send it too.</summary>
    public const string DeadlineHeader = "Connect-Timeout-Ms";

    private readonly string _accept = codecs.Canonical(codec).MediaType;

    public override string ContentType { get; } = codecs.Canonical(codec).ContentType;

    public override ResponseFraming Framing => EnvelopeFraming.Native;

    public override string TimeoutHeader => DeadlineHeader;

    // The routes name the .proto file, which has to be found.
    public override string PathOf(IMethod method, IReadOnlyList<ServiceDescriptor> services, MessageDescriptor request, MessageDescriptor response) =>
        ServiceFiles.FileName(method.ServiceName, services, request, response);

    public override void PrepareUnary(HttpRequestMessage request) => request.Headers.TryAddWithoutValidation("Accept", _accept);

    public override void PrepareStream(HttpRequestMessage request) => request.Headers.TryAddWithoutValidation("Accept", StreamContentType);

    // The server sends the service's trailers as headers (there are no HTTP trailers on HTTP/1.1), so the trailers
    // start from the response headers (the base's UnaryTrailers); real HTTP trailers join once the body has been read.
    public override Task<RpcException> ReadErrorAsync(HttpResponseMessage response, CancellationToken cancellationToken) =>
        ResponseReader.ReadErrorAsync(response, Codecs, HeaderMetadata.FromResponse(response, withTrailers: true), cancellationToken);
}
