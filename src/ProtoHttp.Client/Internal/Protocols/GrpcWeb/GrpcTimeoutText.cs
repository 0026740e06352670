using System.Globalization;

namespace ProtoHttp.Client.Internal.Protocols.GrpcWeb;

/// <summary>
/// Writes <c>grpc-timeout</c> as gRPC defines it: at most 8 digits and a unit (docs/protocol.md section 12).
/// Milliseconds while they fit, else whole seconds rounded up, so a server never sees a shorter deadline than the
/// client keeps; the client's longest deadline (10 digits of milliseconds) fits in seconds.
/// </summary>
internal static class GrpcTimeoutText
{
    public const string HeaderName = "grpc-timeout";

    private const long MaxValue = 99_999_999;

    public static string Format(long milliseconds) => milliseconds <= MaxValue
        ? milliseconds.ToString(CultureInfo.InvariantCulture) + "m"
        : Math.Min((milliseconds + 999) / 1000, MaxValue).ToString(CultureInfo.InvariantCulture) + "S";
}
