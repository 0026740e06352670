namespace ProtoHttp;

/// <summary>What a request <c>Content-Type</c> says about how to read the body.</summary>
internal readonly record struct ContentTypeMatch(ContentTypeStatus Status, MessageFormat Format);

/// <summary>Whether a request body's media type can be read.</summary>
internal enum ContentTypeStatus
{
    Readable,
    Unknown,
    UnsupportedCharset,
}
