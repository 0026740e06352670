namespace ProtoHttp.Streaming;

/// <summary>
/// Chooses a stream's format from an <c>Accept</c> header as <see cref="AcceptNegotiator"/> chooses a unary response's
/// (RFC 9110 weights, the more specific range first), among the types of <see cref="StreamMediaTypes.Acceptable"/>; a
/// tie goes to the request's own stream format, then to the list's order. A unary type that stands for a stream counts
/// only when a range names it outright: a wildcard names the streams' own types.
/// </summary>
internal static class StreamAcceptNegotiator
{
    // MediaRange's specificity of a range that names the type outright.
    private const int ExactRange = 2;

    /// <returns>The chosen type, or <see langword="null"/> when no stream format is acceptable (406).</returns>
    public static StreamMediaType? Negotiate(IReadOnlyList<string?> accept, StreamFormat ownFormat)
    {
        List<MediaRange>? ranges = null;
        var sawAny = false;
        foreach (var header in accept)
        {
            if (string.IsNullOrWhiteSpace(header))
            {
                continue;
            }

            sawAny = true;
            foreach (var item in header.AsSpan().Split(','))
            {
                if (MediaRange.TryParse(header.AsSpan()[item], out var range))
                {
                    (ranges ??= []).Add(range);
                }
            }
        }

        if (!sawAny || ranges is null)
        {
            return StreamMediaTypes.Of(ownFormat);
        }

        StreamMediaType? best = null;
        var bestQuality = 0.0;
        var bestSpecificity = -1;
        foreach (var candidate in StreamMediaTypes.Acceptable)
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
