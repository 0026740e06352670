namespace ProtoHttp.AspNetCore;

/// <summary>The protocol an endpoint of a mapped service answers.</summary>
public enum ProtoHttpProtocol
{
    /// <summary>ProtoHttp's own routes, <c>/{file}.proto/{Method}</c> (PROTOCOL.md sections 1-9).</summary>
    ProtoHttp,

    /// <summary>The Connect protocol's procedure paths, <c>/{package}.{Service}/{Method}</c> (PROTOCOL.md section 10).</summary>
    Connect,
}
