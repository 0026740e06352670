namespace ProtoHttp;

/// <summary>
/// The names of the protocols ProtoHttp's server and typed client speak, as connect-go names its protocols by string
/// constants: a server endpoint's protocol (<c>ProtoHttpMethodMetadata.Protocol</c>), the one a server turns off
/// (<c>ProtoHttpOptions.DisabledProtocols</c>) and the one a client calls in (<c>ProtoHttpClientOptions.Protocol</c>).
/// Protocols are an open set: one added to a server carries a name of its own. Names compare without case.
/// </summary>
public static class ProtocolNames
{
    /// <summary>ProtoHttp's own protocol, <c>/{file}.proto/{Method}</c> (docs/protocol.md sections 1-10).</summary>
    public const string ProtoHttp = "ProtoHttp";

    /// <summary>The Connect protocol (connectrpc.com) at <c>/{package.Service}/{Method}</c> (docs/connect.md).</summary>
    public const string Connect = "Connect";

    /// <summary>gRPC-Web at the same paths as Connect (docs/grpc-web.md); the server speaks it, the typed client does not.</summary>
    public const string GrpcWeb = "GrpcWeb";

    /// <summary>REST routes from the methods' <c>google.api.http</c> rules (docs/rest.md); the server speaks it, the typed client does not.</summary>
    public const string Rest = "Rest";
}
