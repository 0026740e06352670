using Google.Protobuf.Reflection;
using Grpc.Core;

namespace ProtoHttp.Client.Internal.Protocols;

/// <summary>
/// The Connect protocol (connectrpc.com): <c>POST {Address}/{package.Service}/{Method}</c> as <c>application/{codec}</c>
/// with <c>Connect-Protocol-Version: 1</c>, the answer in the request's codec, trailers as <c>trailer-</c> headers,
/// failures as Connect's error JSON; streams ask for gzip, which real Connect servers send large messages in.
/// </summary>
internal sealed class ConnectClientProtocol : ClientWireProtocol
{
    private const string ConnectAcceptEncoding = "Connect-Accept-Encoding";

    /// <param name="codecs">The client's codecs.</param>
    /// <param name="codec">A Connect codec (<see cref="MessageCodec.IsConnectCodec"/>).</param>
    public ConnectClientProtocol(MessageCodecs codecs, MessageCodec codec)
        : base(codecs, codec)
    {
        ContentType = "application/" + codec.Name;
    }

    public override string ContentType { get; }

    // Connect names the service itself.
    public override string PathOf(IMethod method, IReadOnlyList<ServiceDescriptor> services, MessageDescriptor request, MessageDescriptor response) =>
        method.ServiceName;

    // The version header tells the server which protocol this is.
    public override void PrepareCall(HttpRequestMessage request) => request.Headers.TryAddWithoutValidation("Connect-Protocol-Version", "1");

    // A unary answer comes in the request's codec, so nothing is asked for; a stream's may come gzipped.
    public override void PrepareStream(HttpRequestMessage request) => request.Headers.TryAddWithoutValidation(ConnectAcceptEncoding, "gzip");

    public override Metadata UnaryMetadata(HttpResponseMessage response, bool trailers) => HeaderMetadata.FromConnectResponse(response, trailers);

    public override Task<RpcException> ReadErrorAsync(HttpResponseMessage response, CancellationToken cancellationToken) =>
        ConnectErrorReader.ReadAsync(response, HeaderMetadata.FromConnectResponse(response, trailers: true), cancellationToken);
}
