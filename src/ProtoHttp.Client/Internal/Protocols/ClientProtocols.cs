using ProtoHttp.Client.Internal.Protocols.Connect;
using ProtoHttp.Client.Internal.Protocols.GrpcWeb;
using ProtoHttp.Client.Internal.Protocols.Native;

namespace ProtoHttp.Client.Internal.Protocols;

/// <summary>
/// The client's protocol parts by name (<see cref="ProtoHttpClientOptions.Protocol"/>, compared without case), as
/// connect-go's client finds its <c>protocolClient</c>: adding a protocol to the client is a folder and a line here.
/// </summary>
internal static class ClientProtocols
{
    private static readonly Dictionary<string, Func<MessageCodecs, MessageCodec, ClientWireProtocol>> Parts = new(StringComparer.OrdinalIgnoreCase)
    {
        [ProtocolNames.ProtoHttp] = static (codecs, codec) => new ProtoHttpClientProtocol(codecs, codec),
        [ProtocolNames.Connect] = static (codecs, codec) => new ConnectClientProtocol(codecs, codec),
        [ProtocolNames.GrpcWeb] = static (codecs, codec) => new GrpcWebClientProtocol(codecs, codec),
    };

    /// <summary>The part for the options' protocol, writing in the codec the options name, both found by name.</summary>
    /// <exception cref="InvalidOperationException">
    /// No protocol or codec has that name, the codec cannot be sent (form), or not in that protocol (XML over Connect).
    /// </exception>
    public static ClientWireProtocol For(string protocol, MessageCodecs codecs, string codecName)
    {
        ArgumentNullException.ThrowIfNull(protocol);
        ArgumentNullException.ThrowIfNull(codecName);
        if (!Parts.TryGetValue(protocol, out var part))
        {
            throw new InvalidOperationException(
                $"ProtoHttpClientOptions.Protocol is '{protocol}', which the ProtoHttp client does not speak; choose {string.Join(", ", Parts.Keys)} (ProtocolNames).");
        }

        var codec = codecs.Find(codecName)
            ?? throw new InvalidOperationException(
                $"ProtoHttpClientOptions.Codec is '{codecName}', which no codec is called; the codecs are {string.Join(", ", codecs.All.Where(c => c.CanWrite).Select(c => c.Name))}, "
                + "and an app's own can be added to ProtoHttpClientOptions.Codecs.");
        if (!codec.CanWrite)
        {
            throw new InvalidOperationException($"ProtoHttp clients cannot send {codec.Name}, which is read only: choose a codec that writes, such as {CodecNames.Protobuf} or {CodecNames.Json}.");
        }

        return part(codecs, codec);
    }
}
