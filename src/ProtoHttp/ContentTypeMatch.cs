namespace ProtoHttp;

/// <summary>What a request <c>Content-Type</c> says about how to read the body (<see cref="MessageCodecs.MatchContentType"/>).</summary>
/// <param name="Status">Whether the body can be read.</param>
/// <param name="Codec">The body's codec; set unless <paramref name="Status"/> is <see cref="ContentTypeStatus.Unknown"/>.</param>
public readonly record struct ContentTypeMatch(ContentTypeStatus Status, MessageCodec? Codec);

/// <summary>Whether a request body's media type can be read.</summary>
public enum ContentTypeStatus
{
    /// <summary>A codec's media type with UTF-8 or no charset: the body can be read.</summary>
    Readable,

    /// <summary>No codec's media type (415).</summary>
    Unknown,

    /// <summary>A text codec's media type with a charset other than UTF-8 (415).</summary>
    UnsupportedCharset,
}
