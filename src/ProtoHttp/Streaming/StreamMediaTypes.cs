namespace ProtoHttp.Streaming;

/// <summary>
/// The media types of the stream formats (docs/protocol.md section 10): events and lines, and the envelopes of a Connect
/// codec, <c>application/connect+{name}</c>.
/// </summary>
public static class StreamMediaTypes
{
    /// <summary>Server-Sent Events, <c>text/event-stream</c>.</summary>
    public const string EventStream = "text/event-stream";

    /// <summary>Newline-delimited JSON, <c>application/x-ndjson</c>.</summary>
    public const string Ndjson = "application/x-ndjson";

    /// <summary>Connect envelopes of protobuf messages, <c>application/connect+proto</c>.</summary>
    public const string ConnectProto = "application/connect+proto";

    /// <summary>Connect envelopes of JSON messages, <c>application/connect+json</c>.</summary>
    public const string ConnectJson = "application/connect+json";

    /// <summary>The prefix of an envelope stream's type; the codec's name follows.</summary>
    public const string EnvelopePrefix = "application/connect+";

    /// <summary>The envelope stream of <paramref name="codec"/>'s messages, <c>application/connect+{name}</c>.</summary>
    /// <exception cref="ArgumentException">The codec cannot be enveloped (<see cref="MessageCodec.CanBeEnveloped"/>).</exception>
    public static StreamMediaType Envelopes(MessageCodec codec)
    {
        ArgumentNullException.ThrowIfNull(codec);
        if (!codec.CanBeEnveloped)
        {
            throw new ArgumentException($"The '{codec.Name}' codec cannot be enveloped (CanBeEnveloped), so it has no envelope stream.", nameof(codec));
        }

        var type = EnvelopePrefix + codec.Name;
        return new StreamMediaType(type, StreamFormat.Envelopes, type, codec);
    }

    /// <summary>The codec a request or response envelope stream's <c>Content-Type</c> names, or <see langword="null"/>.</summary>
    public static MessageCodec? EnvelopeCodec(string? contentType, MessageCodecs codecs)
    {
        ArgumentNullException.ThrowIfNull(codecs);
        if (contentType is null)
        {
            return null;
        }

        var span = contentType.AsSpan();
        var semicolon = span.IndexOf(';');
        var type = (semicolon < 0 ? span : span[..semicolon]).Trim();
        if (!type.StartsWith(EnvelopePrefix, StringComparison.OrdinalIgnoreCase))
        {
            return null;
        }

        var name = type[EnvelopePrefix.Length..];
        foreach (var codec in codecs.All)
        {
            if (codec.CanBeEnveloped && name.Equals(codec.Name, StringComparison.OrdinalIgnoreCase))
            {
                return codec;
            }
        }

        return null;
    }

    /// <summary>The value of <c>Accept-Post</c> for methods that take envelopes only: the envelope type of every codec that can be enveloped.</summary>
    public static string EnvelopeTypes(MessageCodecs codecs)
    {
        ArgumentNullException.ThrowIfNull(codecs);
        return string.Join(", ", codecs.All.Where(codec => codec.CanBeEnveloped).Select(codec => EnvelopePrefix + codec.Name));
    }
}
