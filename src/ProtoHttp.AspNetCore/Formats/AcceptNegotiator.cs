using System.Collections.Concurrent;

namespace ProtoHttp;

/// <summary>
/// Chooses the response media type from an <c>Accept</c> header as RFC 9110 section 12.5.1 reads it,
/// with the tie-breaks of docs/protocol.md section 3.
/// </summary>
internal static class AcceptNegotiator
{
    private const int NoMatch = -1;

    // Clients send a handful of distinct Accept headers, so answers are remembered; the bound keeps a client that
    // sends a new header on every call from growing the cache without limit.
    private const int CacheLimit = 1024;

    private static readonly ConcurrentDictionary<(string Accept, MessageFormat Own), WritableMediaType?> Cache = new();

    /// <summary>Chooses the response type.</summary>
    /// <param name="accept">The <c>Accept</c> header values; none means the own format.</param>
    /// <param name="ownFormat">The request's own format: its body's, or JSON for GET and form calls.</param>
    /// <returns>The chosen type, or <see langword="null"/> when nothing the server writes is acceptable (406).</returns>
    public static WritableMediaType? Negotiate(IReadOnlyList<string?> accept, MessageFormat ownFormat)
    {
        if (accept.Count != 1 || accept[0] is not { } single)
        {
            return Parse(accept, ownFormat);
        }

        if (Cache.TryGetValue((single, ownFormat), out var known))
        {
            return known;
        }

        var chosen = Parse(accept, ownFormat);
        if (Cache.Count < CacheLimit)
        {
            Cache.TryAdd((single, ownFormat), chosen);
        }

        return chosen;
    }

    private static WritableMediaType? Parse(IReadOnlyList<string?> accept, MessageFormat ownFormat)
    {
        if (MediaRange.ParseAll(accept) is not { } ranges)
        {
            // No Accept header, or one with no range we can read: RFC 9110 lets the server ignore it.
            return MediaTypes.Canonical(ownFormat);
        }

        return Choose(ranges, ownFormat);
    }

    private static WritableMediaType? Choose(List<MediaRange> ranges, MessageFormat ownFormat)
    {
        WritableMediaType? best = null;
        var bestQuality = 0.0;
        var bestSpecificity = NoMatch;
        foreach (var candidate in MediaTypes.Writable)
        {
            var (quality, specificity) = Match(ranges, candidate);
            if (specificity == NoMatch || quality <= 0)
            {
                continue;
            }

            if (best is null || IsBetter(quality, specificity, candidate, bestQuality, bestSpecificity, best, ownFormat))
            {
                best = candidate;
                bestQuality = quality;
                bestSpecificity = specificity;
            }
        }

        return best;
    }

    // Candidates arrive in protobuf, JSON, XML order, canonical first, so an exact tie keeps the earlier one.
    private static bool IsBetter(
        double quality, int specificity, WritableMediaType candidate,
        double bestQuality, int bestSpecificity, WritableMediaType best, MessageFormat ownFormat)
    {
        if (quality != bestQuality)
        {
            return quality > bestQuality;
        }

        if (specificity != bestSpecificity)
        {
            return specificity > bestSpecificity;
        }

        return candidate.Format == ownFormat && best.Format != ownFormat;
    }

    /// <summary>The quality of the most specific range that matches the candidate, and how specific that range is.</summary>
    private static (double Quality, int Specificity) Match(List<MediaRange> ranges, WritableMediaType candidate)
    {
        var quality = 0.0;
        var specificity = NoMatch;
        foreach (var range in ranges)
        {
            var rangeSpecificity = range.Specificity(candidate);
            if (rangeSpecificity > specificity)
            {
                specificity = rangeSpecificity;
                quality = range.Quality;
            }
        }

        return (quality, specificity);
    }
}
