using Microsoft.AspNetCore.Http;
using ProtoHttp.AspNetCore.Internal;
using ProtoHttp.AspNetCore.Invocation;

namespace ProtoHttp.AspNetCore.Protocols.WebSockets;

/// <summary>
/// A call's timeout over WebSocket (docs/protocol.md section 13): <c>Connect-Timeout-Ms</c>, or the query parameter
/// <c>timeout_ms</c> with the same digits, since a browser cannot set headers on a WebSocket.
/// </summary>
internal static class WebSocketTimeout
{
    public const string QueryName = "timeout_ms";

    /// <exception cref="CallRejectedException">The header or the parameter is not 1 to 10 digits (400).</exception>
    public static TimeSpan? Read(HttpRequest request)
    {
        if (request.Headers[MillisecondsTimeout.HeaderName] is { Count: > 0 } header)
        {
            return MillisecondsTimeout.Parse(header);
        }

        if (request.Query[QueryName] is not { Count: > 0 } query)
        {
            return null;
        }

        try
        {
            return MillisecondsTimeout.Parse(query);
        }
        catch (CallRejectedException)
        {
            throw CallRejectedException.BadRequest($"The {QueryName} query parameter must be 1 to 10 digits of milliseconds, not '{query}'.");
        }
    }
}
