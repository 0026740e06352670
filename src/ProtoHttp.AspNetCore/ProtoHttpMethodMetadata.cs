using Google.Protobuf.Reflection;

namespace ProtoHttp.AspNetCore;

/// <summary>
/// Endpoint metadata on every method endpoint <c>MapProtoService</c> maps, as grpc-dotnet's <c>GrpcMethodMetadata</c>
/// is on its own: what a description of the endpoint (an OpenAPI document, an explorer page) needs beyond its route,
/// decided once where the endpoint is mapped. Read it with <c>endpoint.Metadata.GetMetadata&lt;ProtoHttpMethodMetadata&gt;()</c>.
/// </summary>
public sealed class ProtoHttpMethodMetadata
{
    private readonly Lazy<byte[]?> _protoSource;

    internal ProtoHttpMethodMetadata(
        MethodDescriptor method, ProtoHttpProtocol protocol, string formatSuffix, bool allowsGet, Lazy<byte[]?> protoSource, MessageCodecs codecs)
    {
        Codecs = codecs;
        Method = method;
        Protocol = protocol;
        FormatSuffix = formatSuffix;
        AllowsGet = allowsGet;
        _protoSource = protoSource;
    }

    /// <summary>The protobuf method the endpoint calls.</summary>
    public MethodDescriptor Method { get; }

    /// <summary>Whether the endpoint is ProtoHttp's <c>/{file}.proto/{Method}</c> route or Connect's procedure path.</summary>
    public ProtoHttpProtocol Protocol { get; }

    /// <summary>The suffix that forces the response format (<c>.json</c>, <c>.xml</c>...); empty on the plain route.</summary>
    public string FormatSuffix { get; }

    /// <summary>Whether the endpoint answers GET as well as POST.</summary>
    public bool AllowsGet { get; }

    /// <summary>
    /// The service's codec registry: the media types the endpoint reads and writes, each codec's suffix, and which codecs
    /// Connect carries, as the endpoint serves them, so a description lists what the endpoint does.
    /// </summary>
    public MessageCodecs Codecs { get; }

    /// <summary>
    /// The UTF-8 text of the method's <c>.proto</c> file as embedded in the application (read once, shared by every
    /// endpoint of the file), or empty where it is not embedded.
    /// </summary>
    public ReadOnlyMemory<byte> ProtoSource => _protoSource.Value;
}
