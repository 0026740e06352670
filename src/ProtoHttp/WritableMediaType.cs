namespace ProtoHttp;

/// <summary>A media type a response can be written in, with the codec that writes it and the exact <c>Content-Type</c> header it goes out with.</summary>
public sealed class WritableMediaType
{
    /// <summary>A media type <paramref name="mediaType"/> (<c>type/subtype</c>, no parameters) that <paramref name="codec"/> writes.</summary>
    public WritableMediaType(string mediaType, MessageCodec codec)
    {
        ArgumentNullException.ThrowIfNull(mediaType);
        ArgumentNullException.ThrowIfNull(codec);
        MediaType = mediaType;
        Codec = codec;
        ContentType = codec.IsText ? mediaType + "; charset=utf-8" : mediaType;
        var slash = mediaType.IndexOf('/');
        Type = mediaType[..slash];
    }

    /// <summary>The media type, <c>type/subtype</c>, as <c>Accept</c> ranges match it.</summary>
    public string MediaType { get; }

    /// <summary>The codec the response is written in.</summary>
    public MessageCodec Codec { get; }

    /// <summary>The response header value: text codecs say <c>charset=utf-8</c>.</summary>
    public string ContentType { get; }

    /// <summary>The part before the slash, matched by <c>type/*</c> ranges.</summary>
    public string Type { get; }
}
