using Google.Protobuf.Reflection;
using Grpc.Core;
using ProtoHttp.Client.Internal.Framing;

namespace ProtoHttp.Client.Internal.Protocols.Connect;

/// <summary>
/// The Connect protocol (connectrpc.com): <c>POST {Address}/{package.Service}/{Method}</c> as <c>application/{codec}</c>
/// with <c>Connect-Protocol-Version: 1</c> and the deadline in <c>Connect-Timeout-Ms</c>, the answer in the request's
/// codec, trailers as <c>trailer-</c> headers, failures as Connect's error JSON; streams are
/// <c>application/connect+{codec}</c> envelopes and ask for gzip (<c>Connect-Accept-Encoding</c>), which real Connect
/// servers send large messages in, named by <c>Connect-Content-Encoding</c>.
/// </summary>
internal sealed class ConnectClientProtocol : ClientWireProtocol
{
    private const string ConnectAcceptEncoding = "Connect-Accept-Encoding";

    /// <param name="codecs">The client's codecs.</param>
    /// <param name="codec">A codec that can be enveloped (<see cref="MessageCodec.CanBeEnveloped"/>), as Connect names only those.</param>
    /// <exception cref="InvalidOperationException">The codec cannot be enveloped.</exception>
    public ConnectClientProtocol(MessageCodecs codecs, MessageCodec codec)
        : base(codecs, codec)
    {
        ContentType = "application/" + RequireEnveloped("Connect", codecs, codec).Name;
    }

    public override string ContentType { get; }

    public override ResponseFraming Framing => EnvelopeFraming.Connect;

    public override string TimeoutHeader => "Connect-Timeout-Ms";

    // Connect answers in the request's codec as application/{name}, which for an app's codec is no media type it registers.
    public override MessageCodec? ResponseCodec(string contentType) =>
        MediaTypeIs(contentType, ContentType) ? Codec : base.ResponseCodec(contentType);

    // Connect names the service itself.
    public override string PathOf(IMethod method, IReadOnlyList<ServiceDescriptor> services, MessageDescriptor request, MessageDescriptor response) =>
        method.ServiceName;

    // The version header tells the server which protocol this is.
    public override void PrepareCall(HttpRequestMessage request) => request.Headers.TryAddWithoutValidation("Connect-Protocol-Version", "1");

    // A unary answer comes in the request's codec, so nothing is asked for; a stream's may come gzipped.
    public override void PrepareStream(HttpRequestMessage request) => request.Headers.TryAddWithoutValidation(ConnectAcceptEncoding, "gzip");

    public override Metadata UnaryHeaders(HttpResponseMessage response) => HeaderMetadata.FromConnectResponse(response, trailers: false);

    public override Metadata UnaryTrailers(HttpResponseMessage response) => HeaderMetadata.FromConnectResponse(response, trailers: true);

    private static bool MediaTypeIs(string contentType, string mediaType)
    {
        var semicolon = contentType.IndexOf(';');
        return contentType.AsSpan(0, semicolon < 0 ? contentType.Length : semicolon).Trim().Equals(mediaType, StringComparison.OrdinalIgnoreCase);
    }

    public override Task<RpcException> ReadErrorAsync(HttpResponseMessage response, CancellationToken cancellationToken) =>
        ConnectErrorReader.ReadAsync(response, HeaderMetadata.FromConnectResponse(response, trailers: true), cancellationToken);
}
