using Google.Protobuf.Reflection;
using Grpc.Core;

namespace ProtoHttp.Client.Internal.Protocols;

/// <summary>
/// ProtoHttp's own protocol (docs/protocol.md section 8): <c>POST {Address}/{file}.proto/{Method}</c> in the codec's
/// canonical type, the answer asked for with <c>Accept</c>, trailers as headers, failures as an ErrorResult.
/// </summary>
internal sealed class ProtoHttpClientProtocol(MessageCodecs codecs, MessageCodec codec) : ClientWireProtocol(codecs, codec)
{
    private readonly string _accept = codecs.Canonical(codec).MediaType;

    public override string ContentType { get; } = codecs.Canonical(codec).ContentType;

    // The routes name the .proto file, which has to be found.
    public override string PathOf(IMethod method, IReadOnlyList<ServiceDescriptor> services, MessageDescriptor request, MessageDescriptor response) =>
        ServiceFiles.FileName(method.ServiceName, services, request, response);

    public override void PrepareUnary(HttpRequestMessage request) => request.Headers.TryAddWithoutValidation("Accept", _accept);

    public override void PrepareStream(HttpRequestMessage request) => request.Headers.TryAddWithoutValidation("Accept", StreamContentType);

    // The server sends the service's trailers as headers (there are no HTTP trailers on HTTP/1.1), so both views start
    // from the response headers; real HTTP trailers join once the body has been read.
    public override Metadata UnaryMetadata(HttpResponseMessage response, bool trailers) => HeaderMetadata.FromResponse(response, withTrailers: trailers);

    public override Task<RpcException> ReadErrorAsync(HttpResponseMessage response, CancellationToken cancellationToken) =>
        ResponseReader.ReadErrorAsync(response, Codecs, HeaderMetadata.FromResponse(response, withTrailers: true), cancellationToken);
}
