namespace ProtoHttp.AspNetCore;

/// <summary>The protocol an endpoint of a mapped service answers.</summary>
public enum ProtoHttpProtocol
{
    /// <summary>ProtoHttp's own routes, <c>/{file}.proto/{Method}</c> (docs/protocol.md sections 1-10).</summary>
    ProtoHttp,

    /// <summary>The Connect protocol's procedure paths, <c>/{package}.{Service}/{Method}</c> (docs/connect.md).</summary>
    Connect,

    /// <summary>gRPC-Web at the same procedure paths as Connect, <c>/{package}.{Service}/{Method}</c> (docs/grpc-web.md).</summary>
    GrpcWeb,

    /// <summary>Calls over WebSocket at ProtoHttp's own routes, <c>/{file}.proto/{Method}</c> (docs/protocol.md section 15).</summary>
    WebSocket,
}
