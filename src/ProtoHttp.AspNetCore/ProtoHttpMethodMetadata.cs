using Google.Protobuf.Reflection;
using Grpc.Core;
using Microsoft.AspNetCore.Http;
using ProtoHttp.AspNetCore.Pipeline;

namespace ProtoHttp.AspNetCore;

/// <summary>
/// Endpoint metadata on every method endpoint <c>MapProtoService</c> maps, as grpc-dotnet's <c>GrpcMethodMetadata</c>
/// is on its own: what a description of the endpoint (an OpenAPI document, an explorer page) needs beyond its route,
/// decided once where the endpoint is mapped. Read it with <c>endpoint.Metadata.GetMetadata&lt;ProtoHttpMethodMetadata&gt;()</c>.
/// ProtoHttp's own telemetry tags each call from it too (<see cref="RpcSystem"/>, the method, its kind).
/// </summary>
public sealed class ProtoHttpMethodMetadata
{
    private static readonly string[] PostOnly = [HttpMethods.Post];
    private static readonly string[] GetAndPost = [HttpMethods.Get, HttpMethods.Post];

    private readonly Lazy<byte[]?> _protoSource;

    internal ProtoHttpMethodMetadata(CallRoute route, Lazy<byte[]?> protoSource)
    {
        Method = route.Descriptor;
        Protocol = route.Protocol.Name;
        RpcSystem = route.Protocol.TelemetrySystem;
        Kind = route.Kind;
        FormatSuffix = route.Suffix;
        AllowsGet = route.AllowsGet;
        Verbs = route.Verbs ?? (AllowsGet ? GetAndPost : PostOnly);
        RequestMediaTypes = route.Reads;
        ResponseMediaTypes = route.Writes;
        Codecs = route.Settings.Codecs;
        _protoSource = protoSource;
        ActivityName = $"{route.Descriptor.Service.FullName}/{route.Descriptor.Name}";
    }

    /// <summary>The protobuf method the endpoint calls.</summary>
    public MethodDescriptor Method { get; }

    /// <summary>
    /// The name of the protocol the endpoint answers (<see cref="ProtocolNames"/> has the built-in ones: ProtoHttp's
    /// <c>/{file}.proto/{Method}</c> routes, Connect's and gRPC-Web's procedure paths); a protocol added to the server
    /// carries a name of its own.
    /// </summary>
    public string Protocol { get; }

    /// <summary>
    /// The <c>rpc.system</c> of the OpenTelemetry RPC conventions that the endpoint's calls are tagged with in ProtoHttp's
    /// activities and metrics (<c>protohttp</c>, <c>connect_rpc</c>, <c>grpc</c>), so an app's own telemetry can match them.
    /// </summary>
    public string RpcSystem { get; }

    /// <summary>The name of each call's activity, <c>{package.Service}/{Method}</c>, made once rather than per call.</summary>
    internal string ActivityName { get; }

    /// <summary>The kind of method: unary, server streaming, client streaming or bidirectional.</summary>
    public MethodType Kind { get; }

    /// <summary>The HTTP methods the endpoint answers: <c>POST</c>, and <c>GET</c> where <see cref="AllowsGet"/>; a REST route's, its rule's verb.</summary>
    public IReadOnlyList<string> Verbs { get; }

    /// <summary>The media types the endpoint reads in a request body, in the order it prefers them.</summary>
    public IReadOnlyList<string> RequestMediaTypes { get; }

    /// <summary>The media types the endpoint can answer in (a suffix narrows them to one); empty where it answers none (a stream's <c>.xml</c>).</summary>
    public IReadOnlyList<string> ResponseMediaTypes { get; }

    /// <summary>The suffix that forces the response format (<c>.json</c>, <c>.xml</c>...); empty on the plain route.</summary>
    public string FormatSuffix { get; }

    /// <summary>Whether the endpoint answers GET as well as POST.</summary>
    public bool AllowsGet { get; }

    /// <summary>
    /// The service's codec registry: each codec's media types, suffix, and whether Connect carries it, as the endpoint
    /// serves them, so a description (the explorer's formats, OpenAPI's Connect codecs) lists what the endpoint does.
    /// </summary>
    public MessageCodecs Codecs { get; }

    /// <summary>
    /// The UTF-8 text of the method's <c>.proto</c> file as embedded in the application (read once, shared by every
    /// endpoint of the file), or empty where it is not embedded.
    /// </summary>
    public ReadOnlyMemory<byte> ProtoSource => _protoSource.Value;
}
