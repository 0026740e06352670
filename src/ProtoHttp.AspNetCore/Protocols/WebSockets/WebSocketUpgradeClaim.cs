using Microsoft.AspNetCore.Http;
using Microsoft.AspNetCore.Http.Features;
using ProtoHttp.AspNetCore.Pipeline;

namespace ProtoHttp.AspNetCore.Protocols.WebSockets;

/// <summary>
/// Takes the WebSocket upgrades at ProtoHttp's own method paths (docs/protocol.md section 13) away from the native
/// protocol's endpoint there: a GET with <c>Upgrade: websocket</c> (RFC 6455) or an extended CONNECT whose
/// <c>:protocol</c> is <c>websocket</c> (RFC 8441, HTTP/2). Whether the handshake is well-formed is the endpoint's to say.
/// </summary>
internal sealed class WebSocketUpgradeClaim : RequestGate
{
    public static WebSocketUpgradeClaim Instance { get; } = new();

    public override bool Admits(HttpContext context)
    {
        var request = context.Request;
        if (HttpMethods.IsConnect(request.Method))
        {
            return context.Features.Get<IHttpExtendedConnectFeature>() is { IsExtendedConnect: true } connect
                && string.Equals(connect.Protocol, "websocket", StringComparison.OrdinalIgnoreCase);
        }

        if (!HttpMethods.IsGet(request.Method))
        {
            return false;
        }

        foreach (var value in request.Headers.Upgrade)
        {
            if (value is not null && value.Contains("websocket", StringComparison.OrdinalIgnoreCase))
            {
                return true;
            }
        }

        return false;
    }
}
