namespace ProtoHttp;

/// <summary>The wire formats a ProtoHttp message can travel in.</summary>
public enum MessageFormat
{
    /// <summary>The standard protobuf binary encoding.</summary>
    Protobuf,

    /// <summary>Protobuf's canonical JSON mapping.</summary>
    Json,

    /// <summary>ProtoHttp's XML mapping (docs/protocol.md section 4).</summary>
    Xml,

    /// <summary><c>application/x-www-form-urlencoded</c> bodies and query strings; read only.</summary>
    Form,
}
