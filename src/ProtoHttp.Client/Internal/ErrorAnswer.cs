using Grpc.Core;

namespace ProtoHttp.Client.Internal;

/// <summary>
/// The exception a non-2xx answer becomes, in either protocol: an ErrorResult from a ProtoHttp server (whose trailers
/// came as headers), Connect's error JSON from a Connect server (whose trailers came as <c>trailer-</c> headers).
/// </summary>
internal static class ErrorAnswer
{
    public static Task<RpcException> ReadAsync(HttpResponseMessage response, InvokerSettings settings, CancellationToken cancellationToken) =>
        settings.Protocol == ClientProtocol.Connect
            ? ConnectErrorReader.ReadAsync(response, HeaderMetadata.FromConnectResponse(response, trailers: true), cancellationToken)
            : ResponseReader.ReadErrorAsync(response, settings.Codecs, HeaderMetadata.FromResponse(response, withTrailers: true), cancellationToken);
}
