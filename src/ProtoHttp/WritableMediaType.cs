namespace ProtoHttp;

/// <summary>A media type a response can be written in, with the exact <c>Content-Type</c> header it goes out with.</summary>
public sealed class WritableMediaType
{
    /// <summary>A media type <paramref name="mediaType"/> (<c>type/subtype</c>, no parameters) that is written in <paramref name="format"/>.</summary>
    public WritableMediaType(string mediaType, MessageFormat format)
    {
        MediaType = mediaType;
        Format = format;
        ContentType = format == MessageFormat.Protobuf ? mediaType : mediaType + "; charset=utf-8";
        var slash = mediaType.IndexOf('/');
        Type = mediaType[..slash];
    }

    /// <summary>The media type, <c>type/subtype</c>, as <c>Accept</c> ranges match it.</summary>
    public string MediaType { get; }

    /// <summary>The format the response is written in.</summary>
    public MessageFormat Format { get; }

    /// <summary>The response header value: text formats say <c>charset=utf-8</c>.</summary>
    public string ContentType { get; }

    /// <summary>The part before the slash, matched by <c>type/*</c> ranges.</summary>
    public string Type { get; }
}
