namespace ProtoHttp;

/// <summary>
/// The built-in codecs, by name: <see cref="MessageCodecs.Writer(MessageFormat)"/> and
/// <see cref="MessageCodecs.Reader(MessageFormat)"/> find a service's, and the typed client's format is one of them.
/// An app's own codecs have no member here: they are found by media type or <see cref="MessageCodec.Name"/>.
/// </summary>
public enum MessageFormat
{
    /// <summary>The standard protobuf binary encoding (<c>proto</c>).</summary>
    Protobuf,

    /// <summary>Protobuf's canonical JSON mapping (<c>json</c>).</summary>
    Json,

    /// <summary>ProtoHttp's XML mapping (docs/protocol.md section 4) (<c>xml</c>).</summary>
    Xml,

    /// <summary><c>application/x-www-form-urlencoded</c> bodies and query strings (<c>form</c>); read only.</summary>
    Form,
}
