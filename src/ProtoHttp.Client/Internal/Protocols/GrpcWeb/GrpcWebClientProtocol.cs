using Google.Protobuf;
using Google.Protobuf.Reflection;
using Grpc.Core;
using ProtoHttp.Client.Internal.Framing;

namespace ProtoHttp.Client.Internal.Protocols.GrpcWeb;

/// <summary>
/// gRPC-Web (docs/protocol.md section 12), as grpc-dotnet's <c>GrpcWebHandler</c> speaks it in binary mode:
/// <c>POST {Address}/{package.Service}/{Method}</c> as <c>application/grpc-web+{codec}</c>, the request one frame, the
/// deadline in <c>grpc-timeout</c>; the answer is message frames and the trailers frame, whose <c>grpc-status</c> and
/// <c>grpc-message</c> are the outcome (or the headers of a trailers-only answer), compressed as <c>grpc-encoding</c>
/// says. Unary and server-streaming calls only: gRPC-Web carries no request streams.
/// </summary>
internal sealed class GrpcWebClientProtocol : ClientWireProtocol
{
    private const string ContentTypePrefix = "application/grpc-web";

    /// <exception cref="InvalidOperationException">The codec cannot be enveloped: gRPC-Web frames are envelopes.</exception>
    public GrpcWebClientProtocol(MessageCodecs codecs, MessageCodec codec)
        : base(codecs, codec)
    {
        ContentType = ContentTypePrefix + "+" + RequireEnveloped("gRPC-Web", codecs, codec).Name;
    }

    public override string ContentType { get; }

    // A server-streaming request is the same one frame as a unary one.
    public override string? StreamContentType => ContentType;

    public override ResponseFraming Framing => GrpcWebTrailersFrame.Instance;

    public override string TimeoutHeader => GrpcTimeoutText.HeaderName;

    public override bool HasRequestStreams => false;

    public override bool ResumesStreams => false;

    public override string TimeoutValue(long milliseconds) => GrpcTimeoutText.Format(milliseconds);

    // The procedure paths, as Connect's.
    public override string PathOf(IMethod method, IReadOnlyList<ServiceDescriptor> services, MessageDescriptor request, MessageDescriptor response) =>
        method.ServiceName;

    // X-Grpc-Web is what browsers' clients send; the frames this client reads may be gzipped.
    public override void PrepareCall(HttpRequestMessage request)
    {
        request.Headers.TryAddWithoutValidation("X-Grpc-Web", "1");
        request.Headers.TryAddWithoutValidation("grpc-accept-encoding", "identity,gzip");
    }

    public override HttpContent UnaryContent(IMessage message) => new MessageContent(message, Codec, ContentType, enveloped: true);

    public override HttpContent StreamRequestContent(IMessage message) => UnaryContent(message);

    /// <summary>A unary answer is a stream of exactly one message.</summary>
    public override async Task<IMessage> ReadUnaryAsync(HttpResponseMessage response, ClientMethod method, IUnaryOutcome outcome, CancellationToken cancellationToken)
    {
        var frames = await OpenResponseStreamAsync(response, method, eventIds: false, cancellationToken).ConfigureAwait(false);
        try
        {
            var message = await frames.ReadAsync(method.ResponseDescriptor, cancellationToken).ConfigureAwait(false);
            if (message is not null && await frames.ReadAsync(method.ResponseDescriptor, cancellationToken).ConfigureAwait(false) is not null)
            {
                throw new RpcException(new Status(StatusCode.Internal, $"The server answered {method.FullName}, a unary method, with more than one message."));
            }

            if (frames.Error is { } error)
            {
                throw error;
            }

            if (message is null)
            {
                throw new RpcException(new Status(StatusCode.Internal, $"The server ended {method.FullName}, a unary method, with status OK and no response message."), frames.Trailers!);
            }

            outcome.Succeed(frames.Trailers!);
            return message;
        }
        finally
        {
            frames.Complete();
        }
    }

    public override async ValueTask<ResponseEnvelopeReader> OpenResponseStreamAsync(
        HttpResponseMessage response, ClientMethod method, bool eventIds, CancellationToken cancellationToken)
    {
        if (GrpcWebStatus.InHeaders(response, out var trailers, out var error))
        {
            // A trailers-only answer: its outcome is in the headers, whatever its HTTP status, and its body is empty.
            return error is null && !response.IsSuccessStatusCode
                ? throw await ReadErrorAsync(response, cancellationToken).ConfigureAwait(false)
                : ResponseEnvelopeReader.Ended(Framing, trailers, error);
        }

        if (!response.IsSuccessStatusCode)
        {
            throw await ReadErrorAsync(response, cancellationToken).ConfigureAwait(false);
        }

        var contentType = response.Content.Headers.ContentType?.MediaType;
        if (!string.Equals(contentType, ContentTypePrefix, StringComparison.OrdinalIgnoreCase) && !string.Equals(contentType, ContentType, StringComparison.OrdinalIgnoreCase))
        {
            throw new RpcException(new Status(StatusCode.Internal,
                $"The response to {method.FullName} is not gRPC-Web frames of {ContentType}: the server answered {(int)response.StatusCode} with Content-Type '{response.Content.Headers.ContentType}'."));
        }

        var gzip = Framing.IsGzip(response, method.FullName);
        var body = await response.Content.ReadAsStreamAsync(cancellationToken).ConfigureAwait(false);
        return new ResponseEnvelopeReader(body, Framing, Codec, method.Settings.MaxResponseSize, gzip);
    }

    /// <summary>
    /// A refusal: the status in <c>grpc-status</c> if the answer has one, else the HTTP status as gRPC maps it (the
    /// table Connect took from gRPC, so <c>ConnectCodes</c> has it).
    /// </summary>
    public override Task<RpcException> ReadErrorAsync(HttpResponseMessage response, CancellationToken cancellationToken)
    {
        if (GrpcWebStatus.InHeaders(response, out _, out var error) && error is not null)
        {
            return Task.FromResult(error);
        }

        var httpStatus = (int)response.StatusCode;
        return Task.FromResult(new RpcException(
            new Status(ConnectCodes.FromHttpStatus(httpStatus), $"The server answered {httpStatus} {response.ReasonPhrase} without a gRPC status."),
            HeaderMetadata.FromResponse(response, withTrailers: true)));
    }
}
