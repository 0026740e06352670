using System.Globalization;
using System.Text;
using Grpc.Core;

namespace ProtoHttp.Client.Internal.Protocols.GrpcWeb;

/// <summary>
/// How a gRPC-Web answer tells its outcome (docs/protocol.md section 12): <c>grpc-status</c> and <c>grpc-message</c>
/// in the trailers frame, or in the headers of an answer that has no body (gRPC's trailers-only answer, which
/// grpc-dotnet sends for a call that fails before its first message, and ProtoHttp for a refusal); without either, the
/// HTTP status as gRPC maps it (gRPC's http-grpc-status-mapping.md, the table Connect took: <c>ConnectCodes.FromHttpStatus</c>).
/// </summary>
internal static class GrpcWebStatus
{
    public const string StatusHeader = "grpc-status";
    public const string MessageHeader = "grpc-message";
    public const string EncodingHeader = "grpc-encoding";

    /// <summary>
    /// The outcome <paramref name="status"/> and <paramref name="message"/> say: <paramref name="error"/> is
    /// <see langword="null"/> for <c>0</c>. False when <paramref name="status"/> is no status code.
    /// </summary>
    public static bool TryRead(string? status, string? message, Metadata trailers, out RpcException? error)
    {
        error = null;
        if (!int.TryParse(status, NumberStyles.None, CultureInfo.InvariantCulture, out var code))
        {
            return false;
        }

        if (code != 0)
        {
            // A code gRPC has not defined is still a failure: UNKNOWN, as gRPC's own clients read it.
            var known = Enum.IsDefined((StatusCode)code) ? (StatusCode)code : StatusCode.Unknown;
            error = new RpcException(new Status(known, PercentDecode(message ?? "")), trailers);
        }

        return true;
    }

    /// <summary>
    /// Whether the answer's headers carry <c>grpc-status</c> (a trailers-only answer), and if so its trailers (the
    /// headers, less the status's own) and the exception it ends with, <see langword="null"/> for success.
    /// </summary>
    public static bool InHeaders(HttpResponseMessage response, out Metadata trailers, out RpcException? error)
    {
        trailers = new Metadata();
        error = null;
        if (!response.Headers.TryGetValues(StatusHeader, out var statuses))
        {
            return false;
        }

        foreach (var entry in HeaderMetadata.FromResponse(response, withTrailers: true))
        {
            if (entry.Key is not (StatusHeader or MessageHeader))
            {
                trailers.Add(entry);
            }
        }

        var message = response.Headers.TryGetValues(MessageHeader, out var messages) ? messages.First() : null;
        var status = statuses.First();
        if (!TryRead(status, message, trailers, out error))
        {
            error = new RpcException(new Status(StatusCode.Internal, $"The answer's grpc-status header '{status}' is not a status code."), trailers);
        }

        return true;
    }

    /// <summary>gRPC's percent-encoding of <c>grpc-message</c> undone: <c>%XX</c> bytes, the whole read as UTF-8.</summary>
    public static string PercentDecode(string text)
    {
        if (!text.Contains('%'))
        {
            return text;
        }

        var bytes = new List<byte>(text.Length);
        for (var i = 0; i < text.Length; i++)
        {
            if (text[i] == '%' && i + 2 < text.Length
                && byte.TryParse(text.AsSpan(i + 1, 2), NumberStyles.AllowHexSpecifier, CultureInfo.InvariantCulture, out var value))
            {
                bytes.Add(value);
                i += 2;
            }
            else
            {
                bytes.Add((byte)text[i]);
            }
        }

        return Encoding.UTF8.GetString([.. bytes]);
    }
}
