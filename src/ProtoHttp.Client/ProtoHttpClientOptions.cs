using Google.Protobuf.Reflection;

namespace ProtoHttp.Client;

/// <summary>How a <see cref="ProtoHttpCallInvoker"/> calls a ProtoHttp server.</summary>
public sealed class ProtoHttpClientOptions
{
    /// <summary>The default limit on a response body: 4 MiB, the server's default request limit.</summary>
    public const long DefaultMaxResponseSize = 4 * 1024 * 1024;

    /// <summary>
    /// The server's base address, e.g. <c>http://localhost:5080</c>; calls go to <c>{Address}/{file}.proto/{Method}</c>.
    /// A path in the address is kept (<c>http://host/api</c> calls <c>http://host/api/{file}.proto/{Method}</c>).
    /// <see langword="null"/> uses the <see cref="HttpClient.BaseAddress"/>.
    /// </summary>
    public Uri? Address { get; set; }

    /// <summary>
    /// The name of the protocol calls are made in (<see cref="ProtocolNames"/>, compared without case). Default
    /// <see cref="ProtocolNames.ProtoHttp"/>, ProtoHttp's own: <c>POST {Address}/{file}.proto/{Method}</c>, errors as
    /// ErrorResult. <see cref="ProtocolNames.Connect"/> (connectrpc.com): <c>POST {Address}/{package.Service}/{Method}</c>
    /// as <c>application/{codec}</c>, errors as Connect's JSON, streams in Connect's streaming protocol; it calls any
    /// Connect server (connect-go, connect-es, ProtoHttp), in a codec that can be enveloped.
    /// <see cref="ProtocolNames.GrpcWeb"/>: <c>POST {Address}/{package.Service}/{Method}</c> as
    /// <c>application/grpc-web+{codec}</c>, the outcome in the trailers frame, deadlines as <c>grpc-timeout</c>; it calls
    /// any gRPC-Web server (ProtoHttp, grpc-dotnet's <c>Grpc.AspNetCore.Web</c>), unary and server-streaming methods only.
    /// Another name fails when the invoker is made.
    /// </summary>
    public string Protocol { get; set; } = ProtocolNames.ProtoHttp;

    /// <summary>
    /// The name of the codec requests are sent and responses asked for in (<see cref="MessageCodec.Name"/>:
    /// <see cref="CodecNames"/> has the built-in ones, and one of <see cref="Codecs"/> is found by its own). Default
    /// <see cref="CodecNames.Protobuf"/>. Streaming calls use its envelopes (<c>connect+proto</c>, <c>connect+json</c>),
    /// and gRPC-Web its frames: a codec that cannot be enveloped (XML) has none, so streaming calls fail with
    /// <c>Unimplemented</c>, and Connect and gRPC-Web refuse it when the invoker is made.
    /// </summary>
    public string Codec { get; set; } = CodecNames.Protobuf;

    /// <summary>
    /// An app's own codecs, beside the built-in ones, as a server adds them (<c>ProtoHttpOptions.Codecs</c>): calls can
    /// be made in one (<see cref="Codec"/> set to its name), and answers in one are read.
    /// </summary>
    public IList<MessageCodec> Codecs { get; } = new List<MessageCodec>();

    /// <summary>
    /// The largest response body read, in bytes (for a streaming call, the largest message of the stream, inflated if
    /// gzipped); a larger one fails the call with <c>ResourceExhausted</c>. <see langword="null"/> for no limit.
    /// </summary>
    public long? MaxResponseSize { get; set; } = DefaultMaxResponseSize;

    /// <summary>
    /// Services whose <c>.proto</c> file the invoker cannot find by itself: the URI names the file, but a generated
    /// <c>Method</c> names only the service. It is found from the request and response types' files and then among the
    /// loaded assemblies, so this is needed only when the service's code is loaded later or not at all; add
    /// <c>MyService.Descriptor</c>. The message types of these services' files (and of the files they import) are also
    /// those a <c>google.protobuf.Any</c> may hold in JSON, besides the well-known types; a client registered with
    /// <c>AddProtoHttpClient&lt;TClient&gt;()</c> names its own service.
    /// </summary>
    public IList<ServiceDescriptor> Services { get; } = [];

    /// <summary>
    /// Whether client-streaming and bidirectional calls go over a WebSocket at the method's ProtoHttp path
    /// (docs/protocol.md section 13) instead of a request body: for servers, proxies or networks without HTTP/2, where a
    /// bidirectional call cannot be made otherwise (a WebSocket carries both directions over HTTP/1.1). Only with
    /// <see cref="ProtocolNames.ProtoHttp"/>, in protobuf or JSON. The socket is ClientWebSocket's own connection:
    /// the HttpClient's handlers do not see these calls, so put what they would add in the call's metadata.
    /// Default <see langword="false"/>.
    /// </summary>
    public bool RequestStreamsOverWebSocket { get; set; }
}
