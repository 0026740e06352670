using Microsoft.Extensions.Primitives;
using ProtoHttp.Streaming;

namespace ProtoHttp.AspNetCore.Negotiation;

/// <summary>
/// Chooses a stream's format from an <c>Accept</c> header as <see cref="AcceptNegotiator"/> chooses a unary response's
/// (RFC 9110 weights, the more specific range first), among the stream types a service's codecs allow; a tie goes to the
/// request's own stream, then to the list's order. A unary type that stands for a stream counts only when a range names it
/// outright: a wildcard names the streams' own types. Built once per service, from its <see cref="MessageCodecs"/>.
/// </summary>
internal sealed class StreamAcceptNegotiator
{
    // MediaRange's specificity of a range that names the type outright.
    private const int ExactRange = 2;

    // JSON Lines, read as NDJSON's other name (docs/protocol.md section 10): a framing's type, not a codec's.
    private const string JsonLines = "application/jsonl";

    /// <summary>
    /// Every type an <c>Accept</c> header can name for a stream, in tie-break order: each Connect codec's envelopes, lines,
    /// events, then the unary types standing for their codec's stream (JSON's for lines, a Connect codec's for its
    /// envelopes). A codec that is neither (XML) has no stream, so naming only it is a 406.
    /// </summary>
    private readonly StreamMediaType[] _acceptable;

    private readonly StreamMediaType[] _envelopes;

    public StreamAcceptNegotiator(MessageCodecs codecs)
    {
        var json = codecs.Codec(CodecNames.Json);
        _envelopes = [.. codecs.All.Where(codec => codec.CanBeEnveloped).Select(StreamMediaTypes.Envelopes)];
        Lines = new StreamMediaType(StreamMediaTypes.Ndjson, StreamFormat.Lines, StreamMediaTypes.Ndjson, json);
        Events = new StreamMediaType(StreamMediaTypes.EventStream, StreamFormat.Events, StreamMediaTypes.EventStream, json);
        var standing = codecs.All.Where(codec => codec.CanWrite && (codec == json || codec.CanBeEnveloped)).SelectMany(codec =>
            codec.MediaTypes.Select(type => codec == json
                ? new StreamMediaType(type, StreamFormat.Lines, StreamMediaTypes.Ndjson, json)
                : new StreamMediaType(type, StreamFormat.Envelopes, Envelopes(codec).ContentType, codec)));
        _acceptable =
        [
            .. _envelopes,
            Lines,
            new(JsonLines, StreamFormat.Lines, JsonLines, json),
            Events,
            .. standing,
        ];

        var streamed = codecs.All.Where(codec => codec.CanWrite && (codec == json || codec.CanBeEnveloped)).Select(codec => codec.Name).ToArray();
        WritableList = $"{StreamMediaTypes.EventStream}, {StreamMediaTypes.Ndjson}, {JsonLines}, {StreamMediaTypes.EnvelopeTypes(codecs)} " +
            $"(or a {(streamed.Length == 1 ? streamed[0] : $"{string.Join(", ", streamed[..^1])} or {streamed[^1]}")} type, for its codec's stream)";
    }

    /// <summary>The NDJSON stream.</summary>
    public StreamMediaType Lines { get; }

    /// <summary>The Server-Sent Events stream.</summary>
    public StreamMediaType Events { get; }

    /// <summary>The sentence a 406 for a stream answers with.</summary>
    public string WritableList { get; }

    /// <summary>The envelope stream of <paramref name="codec"/>, one of the service's Connect codecs.</summary>
    public StreamMediaType Envelopes(MessageCodec codec) => _envelopes.First(type => type.Codec == codec);

    /// <summary>The envelope stream a request <c>Content-Type</c> names, or <see langword="null"/> when it names none of the service's.</summary>
    public StreamMediaType? EnvelopeType(string? contentType, MessageCodecs codecs) =>
        StreamMediaTypes.EnvelopeCodec(contentType, codecs) is { } codec ? Envelopes(codec) : null;

    /// <returns>The chosen type, or <see langword="null"/> when no stream format is acceptable (406).</returns>
    public StreamMediaType? Negotiate(StringValues accept, StreamMediaType own)
    {
        if (MediaRange.ParseAll(accept) is not { } ranges)
        {
            return own;
        }

        StreamMediaType? best = null;
        var bestQuality = 0.0;
        var bestSpecificity = -1;
        foreach (var candidate in _acceptable)
        {
            var (quality, specificity) = Match(ranges, candidate);
            if (specificity < 0 || quality <= 0)
            {
                continue;
            }

            var better = best is null
                || quality > bestQuality
                || (quality == bestQuality && specificity > bestSpecificity)
                || (quality == bestQuality && specificity == bestSpecificity && IsOwn(candidate, own) && !IsOwn(best, own));
            if (better)
            {
                best = candidate;
                bestQuality = quality;
                bestSpecificity = specificity;
            }
        }

        return best;
    }

    // The own stream is a framing in a codec: application/json standing for lines is as much the own stream as NDJSON.
    private static bool IsOwn(StreamMediaType candidate, StreamMediaType own) => candidate.Format == own.Format && candidate.Codec == own.Codec;

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
