namespace ProtoHttp;

/// <summary>A media type a response can be written in, with the exact <c>Content-Type</c> header it goes out with.</summary>
internal sealed class WritableMediaType
{
    public WritableMediaType(string mediaType, MessageFormat format)
    {
        MediaType = mediaType;
        Format = format;
        ContentType = format == MessageFormat.Protobuf ? mediaType : mediaType + "; charset=utf-8";
        var slash = mediaType.IndexOf('/');
        Type = mediaType[..slash];
    }

    public string MediaType { get; }

    public MessageFormat Format { get; }

    /// <summary>The response header value: text formats say <c>charset=utf-8</c>.</summary>
    public string ContentType { get; }

    /// <summary>The part before the slash, matched by <c>type/*</c> ranges.</summary>
    public string Type { get; }
}
