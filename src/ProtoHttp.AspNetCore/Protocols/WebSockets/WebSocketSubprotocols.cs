using Grpc.Core;
using Microsoft.AspNetCore.Http;
using ProtoHttp.AspNetCore.Internal;
using ProtoHttp.Streaming;

namespace ProtoHttp.AspNetCore.Protocols.WebSockets;

/// <summary>
/// The subprotocols of calls over WebSocket (docs/protocol.md section 13): <c>protohttp+{codec name}</c> for every codec
/// of the service that writes (<c>protohttp+json</c>, <c>protohttp+proto</c>, an app's own); none offered is JSON.
/// </summary>
internal static class WebSocketSubprotocols
{
    public const string Prefix = "protohttp+";

    /// <summary>
    /// The codec of the first offered subprotocol the service speaks, as the envelopes' stream type, and the
    /// subprotocol the handshake names (<see langword="null"/> when none was offered: JSON, and no subprotocol named).
    /// </summary>
    /// <exception cref="CallRejectedException">Only subprotocols the service does not speak were offered (400).</exception>
    public static (StreamMediaType Type, string? Subprotocol) Choose(IList<string> offered, MessageCodecs codecs)
    {
        if (offered.Count == 0)
        {
            return (TypeOf(codecs.Codec(CodecNames.Json), null), null);
        }

        foreach (var subprotocol in offered)
        {
            if (subprotocol.StartsWith(Prefix, StringComparison.OrdinalIgnoreCase) && Find(subprotocol[Prefix.Length..], codecs) is { } codec)
            {
                return (TypeOf(codec, subprotocol), subprotocol);
            }
        }

        throw new CallRejectedException(StatusCodes.Status400BadRequest, StatusCode.InvalidArgument,
            $"None of the subprotocols in Sec-WebSocket-Protocol ({string.Join(", ", offered)}) is spoken here; offer one of {List(codecs)}, or none for JSON.");
    }

    /// <summary>Every subprotocol the service speaks, for the endpoint's metadata and the refusal's text.</summary>
    public static string[] All(MessageCodecs codecs) => [.. codecs.All.Where(codec => codec.CanWrite).Select(codec => Prefix + codec.Name)];

    private static string List(MessageCodecs codecs) => string.Join(", ", All(codecs));

    private static MessageCodec? Find(string name, MessageCodecs codecs)
    {
        foreach (var codec in codecs.All)
        {
            if (codec.CanWrite && string.Equals(codec.Name, name, StringComparison.OrdinalIgnoreCase))
            {
                return codec;
            }
        }

        return null;
    }

    /// <summary>The envelopes of <paramref name="codec"/> as a stream type, named <c>application/protohttp+{name}</c> (its logs and telemetry).</summary>
    private static StreamMediaType TypeOf(MessageCodec codec, string? subprotocol)
    {
        var name = "application/" + (subprotocol ?? Prefix + codec.Name).ToLowerInvariant();
        return new StreamMediaType(name, StreamFormat.Envelopes, name, codec);
    }
}
