namespace ProtoHttp.Streaming;

/// <summary>
/// A media type an <c>Accept</c> header can name for a stream, and the stream it stands for: a stream's own type, or a
/// unary type that stands for its codec's stream format (<c>application/json</c> for lines).
/// </summary>
public sealed class StreamMediaType
{
    /// <summary>
    /// The type <paramref name="mediaType"/> standing for the stream <paramref name="format"/> of messages in
    /// <paramref name="codec"/>, answered with <paramref name="contentType"/> (the stream's own type, which differs when
    /// a unary type stands for a stream).
    /// </summary>
    public StreamMediaType(string mediaType, StreamFormat format, string contentType, MessageCodec codec)
    {
        ArgumentNullException.ThrowIfNull(mediaType);
        ArgumentNullException.ThrowIfNull(contentType);
        ArgumentNullException.ThrowIfNull(codec);
        MediaType = mediaType;
        Format = format;
        ContentType = contentType;
        Codec = codec;
        Type = mediaType[..mediaType.IndexOf('/')];
    }

    /// <summary>The type as an <c>Accept</c> range names it.</summary>
    public string MediaType { get; }

    /// <summary>How the stream is framed.</summary>
    public StreamFormat Format { get; }

    /// <summary>The response <c>Content-Type</c> of the stream.</summary>
    public string ContentType { get; }

    /// <summary>The part before the slash, matched by <c>type/*</c> ranges.</summary>
    public string Type { get; }

    /// <summary>Whether this is a unary type standing for a stream of another type (<c>application/json</c> for NDJSON).</summary>
    public bool StandsForAnother => !string.Equals(MediaType, ContentType, StringComparison.Ordinal);

    /// <summary>The codec the stream's messages are written in: the envelopes' codec, JSON for events and lines.</summary>
    public MessageCodec Codec { get; }
}
