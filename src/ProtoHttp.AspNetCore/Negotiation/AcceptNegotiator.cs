using System.Collections.Concurrent;
using Microsoft.Extensions.Primitives;

namespace ProtoHttp.AspNetCore.Negotiation;

/// <summary>
/// Chooses the response media type from an <c>Accept</c> header as RFC 9110 section 12.5.1 reads it,
/// with the tie-breaks of docs/protocol.md section 3, among the types a service's <see cref="MessageCodecs"/> write.
/// </summary>
internal static class AcceptNegotiator
{
    private const int NoMatch = -1;

    // Clients send a handful of distinct Accept headers, so answers are remembered; the bound keeps a client that
    // sends a new header on every call from growing the cache without limit.
    private const int CacheLimit = 1024;

    // The registry is part of the key: services with codecs of their own have candidates of their own.
    private static readonly ConcurrentDictionary<(string Accept, MessageCodec Own, MessageCodecs Codecs), WritableMediaType?> Cache = new();

    /// <summary>Chooses the response type.</summary>
    /// <param name="codecs">The service's codecs, whose <see cref="MessageCodecs.Writable"/> types are the candidates.</param>
    /// <param name="accept">
    /// The <c>Accept</c> header values; none means the own format. A <see cref="StringValues"/>, not a list interface:
    /// every call negotiates, and the interface would box the header and its enumerator each time.
    /// </param>
    /// <param name="own">The request's own codec: its body's, or JSON for GET and form calls.</param>
    /// <returns>The chosen type, or <see langword="null"/> when nothing the server writes is acceptable (406).</returns>
    public static WritableMediaType? Negotiate(MessageCodecs codecs, StringValues accept, MessageCodec own)
    {
        if (accept.Count != 1 || accept[0] is not { } single)
        {
            return Parse(codecs, accept, own);
        }

        if (Cache.TryGetValue((single, own, codecs), out var known))
        {
            return known;
        }

        var chosen = Parse(codecs, accept, own);
        if (Cache.Count < CacheLimit)
        {
            Cache.TryAdd((single, own, codecs), chosen);
        }

        return chosen;
    }

    private static WritableMediaType? Parse(MessageCodecs codecs, StringValues accept, MessageCodec own)
    {
        if (MediaRange.ParseAll(accept) is not { } ranges)
        {
            // No Accept header, or one with no range we can read: RFC 9110 lets the server ignore it.
            return codecs.Canonical(own);
        }

        return Choose(codecs, ranges, own);
    }

    private static WritableMediaType? Choose(MessageCodecs codecs, List<MediaRange> ranges, MessageCodec own)
    {
        WritableMediaType? best = null;
        var bestQuality = 0.0;
        var bestSpecificity = NoMatch;
        foreach (var candidate in codecs.Writable)
        {
            var (quality, specificity) = Match(ranges, candidate);
            if (specificity == NoMatch || quality <= 0)
            {
                continue;
            }

            if (best is null || IsBetter(quality, specificity, candidate, bestQuality, bestSpecificity, best, own))
            {
                best = candidate;
                bestQuality = quality;
                bestSpecificity = specificity;
            }
        }

        return best;
    }

    // Candidates arrive in protobuf, JSON, XML order, then the app's codecs, canonical first, so an exact tie keeps the earlier one.
    private static bool IsBetter(
        double quality, int specificity, WritableMediaType candidate,
        double bestQuality, int bestSpecificity, WritableMediaType best, MessageCodec own)
    {
        if (quality != bestQuality)
        {
            return quality > bestQuality;
        }

        if (specificity != bestSpecificity)
        {
            return specificity > bestSpecificity;
        }

        return candidate.Codec == own && best.Codec != own;
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
