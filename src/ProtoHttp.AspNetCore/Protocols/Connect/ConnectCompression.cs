using Grpc.Core;
using Microsoft.AspNetCore.Http;
using ProtoHttp.AspNetCore.Internal;

namespace ProtoHttp.AspNetCore.Protocols.Connect;

/// <summary>
/// Which compression a Connect call uses: gzip, the one besides <c>identity</c> this server speaks, agreed through
/// Connect's headers. The bytes themselves are <see cref="Pipeline.GzipPayloads"/>'.
/// </summary>
internal static class ConnectCompression
{
    public const string Gzip = "gzip";
    public const string Identity = "identity";

    /// <summary>What the server accepts, for <c>Accept-Encoding</c> on an <c>unimplemented</c> refusal.</summary>
    public const string Supported = "gzip, identity";

    /// <summary>Whether <paramref name="encoding"/> (a Content-Encoding value or a GET's compression) is gzip.</summary>
    /// <exception cref="CallRejectedException">An encoding other than gzip and identity: <c>unimplemented</c>.</exception>
    public static bool IsGzip(string? encoding)
    {
        if (string.IsNullOrEmpty(encoding) || encoding.Equals(Identity, StringComparison.OrdinalIgnoreCase))
        {
            return false;
        }

        if (encoding.Equals(Gzip, StringComparison.OrdinalIgnoreCase))
        {
            return true;
        }

        throw new CallRejectedException(StatusCodes.Status501NotImplemented, StatusCode.Unimplemented,
            $"The compression '{encoding}' is not supported; this server reads {Supported}.")
        {
            Hint = new("Accept-Encoding", Supported),
        };
    }

    /// <summary>Whether an <c>Accept-Encoding</c>-style list names gzip without <c>q=0</c>.</summary>
    public static bool Accepts(string? acceptEncoding)
    {
        foreach (var item in (acceptEncoding ?? "").Split(',', StringSplitOptions.TrimEntries | StringSplitOptions.RemoveEmptyEntries))
        {
            var parts = item.Split(';', StringSplitOptions.TrimEntries);
            if (parts[0].Equals(Gzip, StringComparison.OrdinalIgnoreCase))
            {
                return !parts.Skip(1).Any(parameter => parameter.StartsWith("q=", StringComparison.OrdinalIgnoreCase)
                    && double.TryParse(parameter[2..], System.Globalization.CultureInfo.InvariantCulture, out var q) && q == 0);
            }
        }

        return false;
    }

    /// <summary>
    /// Whether an answer may go out gzipped: the client lists gzip in <paramref name="acceptEncoding"/>, or sends no such
    /// list and gzipped its request, which the Connect spec says then stands for what it accepts.
    /// </summary>
    public static bool AnswersGzip(Microsoft.Extensions.Primitives.StringValues acceptEncoding, string? requestEncoding) =>
        acceptEncoding.Count == 0 ? string.Equals(requestEncoding, Gzip, StringComparison.OrdinalIgnoreCase) : Accepts(acceptEncoding);
}
