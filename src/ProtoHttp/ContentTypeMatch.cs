namespace ProtoHttp;

/// <summary>What a request <c>Content-Type</c> says about how to read the body (<see cref="MediaTypes.MatchContentType"/>).</summary>
/// <param name="Status">Whether the body can be read.</param>
/// <param name="Format">The body's format; meaningful unless <paramref name="Status"/> is <see cref="ContentTypeStatus.Unknown"/>.</param>
public readonly record struct ContentTypeMatch(ContentTypeStatus Status, MessageFormat Format);

/// <summary>Whether a request body's media type can be read.</summary>
public enum ContentTypeStatus
{
    /// <summary>A format's media type with UTF-8 or no charset: the body can be read.</summary>
    Readable,

    /// <summary>No format's media type (415).</summary>
    Unknown,

    /// <summary>A text format's media type with a charset other than UTF-8 (415).</summary>
    UnsupportedCharset,
}
