namespace ProtoHttp.Streaming;

/// <summary>The media types of the stream formats (docs/protocol.md section 10) and the envelope request types.</summary>
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

    /// <summary>The value of <c>Accept-Post</c> for client-streaming and bidirectional methods, which take envelopes only.</summary>
    public const string EnvelopeTypes = ConnectProto + ", " + ConnectJson;

    /// <summary>The Server-Sent Events stream.</summary>
    public static StreamMediaType Events { get; } = new(EventStream, StreamFormat.Events, EventStream);

    /// <summary>The NDJSON stream.</summary>
    public static StreamMediaType Lines { get; } = new(Ndjson, StreamFormat.Lines, Ndjson);

    /// <summary>The stream of Connect envelopes of protobuf messages.</summary>
    public static StreamMediaType Proto { get; } = new(ConnectProto, StreamFormat.ConnectProto, ConnectProto);

    /// <summary>The stream of Connect envelopes of JSON messages.</summary>
    public static StreamMediaType Json { get; } = new(ConnectJson, StreamFormat.ConnectJson, ConnectJson);

    /// <summary>The envelope stream a request <c>Content-Type</c> names, or <see langword="null"/> when it names none.</summary>
    public static StreamMediaType? EnvelopeType(string? contentType)
    {
        if (contentType is null)
        {
            return null;
        }

        var span = contentType.AsSpan();
        var semicolon = span.IndexOf(';');
        var type = (semicolon < 0 ? span : span[..semicolon]).Trim();
        return type.Equals(ConnectProto, StringComparison.OrdinalIgnoreCase) ? Proto
            : type.Equals(ConnectJson, StringComparison.OrdinalIgnoreCase) ? Json
            : null;
    }
}
