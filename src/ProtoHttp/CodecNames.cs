namespace ProtoHttp;

/// <summary>
/// The names of the built-in codecs (<see cref="MessageCodec.Name"/>), as connect-go names its codecs: what
/// <see cref="MessageCodecs.Codec(string)"/> finds a service's or a client's codec by. Codecs are an open set: an app's
/// own is found by the name it gives itself, the same way.
/// </summary>
public static class CodecNames
{
    /// <summary>The standard protobuf binary encoding.</summary>
    public const string Protobuf = "proto";

    /// <summary>Protobuf's canonical JSON mapping.</summary>
    public const string Json = "json";

    /// <summary>ProtoHttp's XML mapping (docs/protocol.md section 4); left out where the app turns the <c>ProtoHttp.Xml.IsSupported</c> switch off.</summary>
    public const string Xml = "xml";

    /// <summary><c>application/x-www-form-urlencoded</c> bodies and query strings; read only.</summary>
    public const string Form = "form";
}
