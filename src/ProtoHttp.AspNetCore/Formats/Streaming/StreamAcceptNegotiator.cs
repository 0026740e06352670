namespace ProtoHttp.Streaming;

/// <summary>
/// Chooses a stream's format from an <c>Accept</c> header as <see cref="AcceptNegotiator"/> chooses a unary response's
/// (RFC 9110 weights, the more specific range first), among the types of <see cref="Acceptable"/>; a
/// tie goes to the request's own stream format, then to the list's order. A unary type that stands for a stream counts
/// only when a range names it outright: a wildcard names the streams' own types.
/// </summary>
internal static class StreamAcceptNegotiator
{
    // MediaRange's specificity of a range that names the type outright.
    private const int ExactRange = 2;

    /// <summary>
    /// Every type an <c>Accept</c> header can name for a stream, in tie-break order. The unary protobuf and JSON types
    /// stand for their codec's stream format; XML has none, so naming only XML is a 406.
    /// </summary>
    private static readonly StreamMediaType[] Acceptable =
    [
        StreamMediaTypes.Proto,
        StreamMediaTypes.Json,
        StreamMediaTypes.Lines,
        new("application/jsonl", StreamFormat.Lines, "application/jsonl"),
        StreamMediaTypes.Events,
        new("application/x-protobuf", StreamFormat.ConnectProto, StreamMediaTypes.ConnectProto),
        new("application/protobuf", StreamFormat.ConnectProto, StreamMediaTypes.ConnectProto),
        new("application/vnd.google.protobuf", StreamFormat.ConnectProto, StreamMediaTypes.ConnectProto),
        new("application/proto", StreamFormat.ConnectProto, StreamMediaTypes.ConnectProto),
        new("application/json", StreamFormat.Lines, StreamMediaTypes.Ndjson),
        new("text/json", StreamFormat.Lines, StreamMediaTypes.Ndjson),
    ];

    /// <summary>The sentence a 406 for a stream answers with.</summary>
    internal const string WritableList =
        "text/event-stream, application/x-ndjson, application/jsonl, application/connect+proto, application/connect+json " +
        "(or a protobuf or JSON type, for its codec's stream)";

    private static StreamMediaType Of(StreamFormat format) => format switch
    {
        StreamFormat.Events => StreamMediaTypes.Events,
        StreamFormat.Lines => StreamMediaTypes.Lines,
        StreamFormat.ConnectProto => StreamMediaTypes.Proto,
        _ => StreamMediaTypes.Json,
    };

    /// <returns>The chosen type, or <see langword="null"/> when no stream format is acceptable (406).</returns>
    public static StreamMediaType? Negotiate(IReadOnlyList<string?> accept, StreamFormat ownFormat)
    {
        if (MediaRange.ParseAll(accept) is not { } ranges)
        {
            return Of(ownFormat);
        }

        StreamMediaType? best = null;
        var bestQuality = 0.0;
        var bestSpecificity = -1;
        foreach (var candidate in Acceptable)
        {
            var (quality, specificity) = Match(ranges, candidate);
            if (specificity < 0 || quality <= 0)
            {
                continue;
            }

            var better = best is null
                || quality > bestQuality
                || (quality == bestQuality && specificity > bestSpecificity)
                || (quality == bestQuality && specificity == bestSpecificity && candidate.Format == ownFormat && best.Format != ownFormat);
            if (better)
            {
                best = candidate;
                bestQuality = quality;
                bestSpecificity = specificity;
            }
        }

        return best;
    }

    private static (double Quality, int Specificity) Match(List<MediaRange> ranges, StreamMediaType candidate)
    {
        var quality = 0.0;
        var specificity = -1;
        foreach (var range in ranges)
        {
            var rangeSpecificity = range.Specificity(candidate.Type, candidate.MediaType);
            if (candidate.StandsForAnother && rangeSpecificity < ExactRange)
            {
                // text/* asks for text: it must not bring application/x-ndjson through text/json.
                continue;
            }

            if (rangeSpecificity > specificity)
            {
                specificity = rangeSpecificity;
                quality = range.Quality;
            }
        }

        return (quality, specificity);
    }
}
