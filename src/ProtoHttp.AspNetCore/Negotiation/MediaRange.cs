using System.Globalization;
using Microsoft.Extensions.Primitives;

namespace ProtoHttp.AspNetCore.Negotiation;

/// <summary>One element of an <c>Accept</c> header: <c>type/subtype</c>, <c>type/*</c> or <c>*/*</c>, with its weight.</summary>
internal readonly struct MediaRange
{
    private const int AnyType = 0;
    private const int AnySubtype = 1;
    private const int Exact = 2;

    private readonly string _type;
    private readonly string _subtype;

    private MediaRange(string type, string subtype, double quality)
    {
        _type = type;
        _subtype = subtype;
        Quality = quality;
    }

    public double Quality { get; }

    /// <summary>
    /// The ranges of every <c>Accept</c> header value that can be read, or <see langword="null"/> when there are none:
    /// no header, or none with a range that can be read, which RFC 9110 lets the server ignore.
    /// </summary>
    public static List<MediaRange>? ParseAll(StringValues accept)
    {
        List<MediaRange>? ranges = null;
        foreach (var header in accept)
        {
            if (string.IsNullOrWhiteSpace(header))
            {
                continue;
            }

            foreach (var item in header.AsSpan().Split(','))
            {
                if (TryParse(header.AsSpan()[item], out var range))
                {
                    (ranges ??= []).Add(range);
                }
            }
        }

        return ranges;
    }

    /// <summary>Parses one range; a malformed one is skipped, as RFC 9110 allows.</summary>
    public static bool TryParse(ReadOnlySpan<char> text, out MediaRange range)
    {
        range = default;
        var semicolon = text.IndexOf(';');
        var mediaType = (semicolon < 0 ? text : text[..semicolon]).Trim();
        var slash = mediaType.IndexOf('/');
        if (slash <= 0 || slash == mediaType.Length - 1)
        {
            return false;
        }

        var type = mediaType[..slash].Trim();
        var subtype = mediaType[(slash + 1)..].Trim();
        if (type.SequenceEqual("*") && !subtype.SequenceEqual("*"))
        {
            return false;
        }

        var quality = 1.0;
        if (semicolon >= 0 && !TryReadQuality(text[(semicolon + 1)..], ref quality))
        {
            return false;
        }

        range = new MediaRange(type.ToString(), subtype.ToString(), quality);
        return true;
    }

    /// <summary>How specifically this range names the candidate, or -1 when it does not match it.</summary>
    public int Specificity(WritableMediaType candidate) => Specificity(candidate.Type, candidate.MediaType);

    /// <summary>How specifically this range names <paramref name="mediaType"/> (whose type is <paramref name="type"/>), or -1.</summary>
    public int Specificity(string type, string mediaType)
    {
        if (_type == "*")
        {
            return AnyType;
        }

        if (!_type.Equals(type, StringComparison.OrdinalIgnoreCase))
        {
            return -1;
        }

        if (_subtype == "*")
        {
            return AnySubtype;
        }

        return mediaType.AsSpan(type.Length + 1).Equals(_subtype, StringComparison.OrdinalIgnoreCase)
            ? Exact
            : -1;
    }

    private static bool TryReadQuality(ReadOnlySpan<char> parameters, ref double quality)
    {
        foreach (var range in parameters.Split(';'))
        {
            var parameter = parameters[range].Trim();
            if (parameter.Length < 2 || (parameter[0] | 0x20) != 'q' || parameter[1] != '=')
            {
                continue;
            }

            if (!double.TryParse(parameter[2..], NumberStyles.AllowDecimalPoint, CultureInfo.InvariantCulture, out quality)
                || quality > 1)
            {
                return false;
            }

            return true;
        }

        return true;
    }
}
