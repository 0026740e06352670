using Microsoft.AspNetCore.Http;
using ProtoHttp.AspNetCore.Internal;

namespace ProtoHttp.AspNetCore.Protocols.Connect;

/// <summary>Header names of the Connect protocol that more than one class uses.</summary>
internal static class ConnectHeaders
{
    /// <summary>A unary response's trailers travel as headers with this prefix.</summary>
    public const string TrailerPrefix = "trailer-";

    public const string ProtocolVersion = "Connect-Protocol-Version";

    /// <summary>A request may leave out <c>Connect-Protocol-Version</c>; when it sends one, it must be 1.</summary>
    /// <exception cref="CallRejectedException">Another version: <c>invalid_argument</c>.</exception>
    public static void CheckProtocolVersion(HttpRequest request)
    {
        if (request.Headers[ProtocolVersion] is { Count: > 0 } version && version != "1")
        {
            throw CallRejectedException.BadRequest($"The {ProtocolVersion} header is '{version}'; this server speaks version 1.");
        }
    }
}
