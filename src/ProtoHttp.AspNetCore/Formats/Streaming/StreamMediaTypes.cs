namespace ProtoHttp.Streaming;

/// <summary>The media types of the stream formats (PROTOCOL.md section 9) and the envelope request types.</summary>
internal static class StreamMediaTypes
{
    public const string EventStream = "text/event-stream";
    public const string Ndjson = "application/x-ndjson";
    public const string ConnectProto = "application/connect+proto";
    public const string ConnectJson = "application/connect+json";

    /// <summary>The value of <c>Accept-Post</c> for client-streaming and bidirectional methods, which take envelopes only.</summary>
    public const string EnvelopeTypes = ConnectProto + ", " + ConnectJson;

    public static readonly StreamMediaType Events = new(EventStream, StreamFormat.Events, EventStream);
    public static readonly StreamMediaType Lines = new(Ndjson, StreamFormat.Lines, Ndjson);
    public static readonly StreamMediaType Proto = new(ConnectProto, StreamFormat.ConnectProto, ConnectProto);
    public static readonly StreamMediaType Json = new(ConnectJson, StreamFormat.ConnectJson, ConnectJson);

    /// <summary>
    /// Every type an <c>Accept</c> header can name for a stream, in tie-break order. The unary protobuf and JSON types
    /// stand for their codec's stream format; XML has none, so naming only XML is a 406.
    /// </summary>
    public static readonly StreamMediaType[] Acceptable =
    [
        Proto,
        Json,
        Lines,
        new("application/jsonl", StreamFormat.Lines, "application/jsonl"),
        Events,
        new("application/x-protobuf", StreamFormat.ConnectProto, ConnectProto),
        new("application/protobuf", StreamFormat.ConnectProto, ConnectProto),
        new("application/vnd.google.protobuf", StreamFormat.ConnectProto, ConnectProto),
        new("application/proto", StreamFormat.ConnectProto, ConnectProto),
        new("application/json", StreamFormat.Lines, Ndjson),
        new("text/json", StreamFormat.Lines, Ndjson),
    ];

    /// <summary>The sentence a 406 for a stream answers with.</summary>
    public const string WritableList =
        "text/event-stream, application/x-ndjson, application/jsonl, application/connect+proto, application/connect+json " +
        "(or a protobuf or JSON type, for its codec's stream)";

    public static StreamMediaType Of(StreamFormat format) => format switch
    {
        StreamFormat.Events => Events,
        StreamFormat.Lines => Lines,
        StreamFormat.ConnectProto => Proto,
        _ => Json,
    };

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
