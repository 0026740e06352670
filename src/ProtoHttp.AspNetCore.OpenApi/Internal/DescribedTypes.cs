using ProtoHttp.Streaming;

namespace ProtoHttp.AspNetCore.OpenApi.Internal;

/// <summary>
/// The media types a description lists for an endpoint, from what its <see cref="ProtoHttpMethodMetadata"/> says it
/// reads or writes: each codec once, by its canonical type (docs/protocol.md section 2; the others are its aliases),
/// no <c>application/*+json</c>-style range, every other type (a stream's, a protocol's own) as it is; JSON's first,
/// the one a reader of the description most likely tries.
/// </summary>
internal static class DescribedTypes
{
    public static string[] Of(IEnumerable<string> types, MessageCodecs codecs) =>
        JsonFirst(types.Where(type => !type.Contains('*', StringComparison.Ordinal) && IsCanonicalOrNoCodecs(type, codecs)), codecs);

    /// <summary>
    /// <paramref name="types"/> as they are, JSON's canonical type first: a protocol's own types (Connect's
    /// <c>application/{name}</c>), one per codec already, where a codec's alias may name another codec.
    /// </summary>
    public static string[] JsonFirst(IEnumerable<string> types, MessageCodecs codecs)
    {
        var jsonType = codecs.Codec(CodecNames.Json).MediaTypes[0];
        return [.. types
            .Distinct(StringComparer.OrdinalIgnoreCase)
            .OrderBy(type => string.Equals(type, jsonType, StringComparison.OrdinalIgnoreCase) ? 0 : 1)];
    }

    /// <summary>The Connect codec whose envelopes <paramref name="type"/> is, or <see langword="null"/>.</summary>
    public static MessageCodec? EnvelopeCodec(string type, MessageCodecs codecs) => StreamMediaTypes.EnvelopeCodec(type, codecs);

    /// <summary>
    /// The types a streaming endpoint's failures before its first record come in (docs/protocol.md section 10): an
    /// envelope stream's codec, JSON for the other framings; JSON first.
    /// </summary>
    public static string[] StreamErrors(IEnumerable<string> answers, MessageCodecs codecs) =>
        Of(answers.Select(type => codecs.Canonical(EnvelopeCodec(type, codecs) ?? codecs.Codec(CodecNames.Json)).MediaType).Append(codecs.Canonical(CodecNames.Json).MediaType), codecs);

    private static bool IsCanonicalOrNoCodecs(string type, MessageCodecs codecs)
    {
        foreach (var codec in codecs.All)
        {
            var index = codec.MediaTypes.IndexOf(type.ToLowerInvariant());
            if (index >= 0)
            {
                return index == 0;
            }
        }

        return true;
    }
}
