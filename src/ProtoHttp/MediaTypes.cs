namespace ProtoHttp;

/// <summary>
/// The canonical media types of the built-in codecs (docs/protocol.md section 2). Every list of the types a service
/// reads and writes (the others of each codec, an app's own codecs, <c>Accept-Post</c>) is its <see cref="MessageCodecs"/>.
/// </summary>
public static class MediaTypes
{
    /// <summary>Protobuf's canonical media type, <c>application/x-protobuf</c>.</summary>
    public const string Protobuf = "application/x-protobuf";

    /// <summary>JSON's canonical media type, <c>application/json</c>.</summary>
    public const string Json = "application/json";

    /// <summary>XML's canonical media type, <c>application/xml</c>.</summary>
    public const string Xml = "application/xml";

    /// <summary>The media type of form bodies, <c>application/x-www-form-urlencoded</c>.</summary>
    public const string Form = "application/x-www-form-urlencoded";
}
