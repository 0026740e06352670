using System.Globalization;
using Google.Protobuf.WellKnownTypes;

namespace ProtoHttp;

/// <summary>
/// Duration text as protobuf's JSON mapping writes it: seconds with 0, 3, 6 or 9 fraction digits and an
/// <c>s</c> suffix (<c>1.5s</c>, <c>-0.001s</c>). Also the fraction helpers <see cref="TimestampText"/> shares.
/// </summary>
internal static class DurationText
{
    private const long MaxSeconds = 315_576_000_000; // 10,000 years, the range protobuf allows

    public static string Format(Duration value)
    {
        var negative = value.Seconds < 0 || value.Nanos < 0;
        Span<char> text = stackalloc char[32];
        var length = 0;
        if (negative)
        {
            text[length++] = '-';
        }

        Math.Abs(value.Seconds).TryFormat(text[length..], out var written, default, CultureInfo.InvariantCulture);
        length += written;
        length += FormatFraction(Math.Abs(value.Nanos), text[length..]);
        text[length++] = 's';
        return new string(text[..length]);
    }

    /// <exception cref="ValueFormatException">Not a duration such as <c>1.5s</c> within ±10,000 years.</exception>
    public static Duration Parse(string text)
    {
        var span = text.AsSpan().Trim(" \t\r\n");
        var negative = span.StartsWith("-");
        if (negative)
        {
            span = span[1..];
        }

        var digits = span.IndexOfAnyExceptInRange('0', '9');
        if (digits <= 0 || span[^1] != 's'
            || !long.TryParse(span[..digits], NumberStyles.None, CultureInfo.InvariantCulture, out var seconds) || seconds > MaxSeconds)
        {
            throw Invalid(text);
        }

        var rest = span[digits..^1];
        var nanos = ParseFraction(ref rest) ?? throw Invalid(text);
        return rest.IsEmpty
            ? new Duration { Seconds = negative ? -seconds : seconds, Nanos = negative ? -nanos : nanos }
            : throw Invalid(text);
    }

    /// <summary>Writes <c>.123</c>, <c>.123456</c> or <c>.123456789</c> (nothing for 0); returns the length.</summary>
    internal static int FormatFraction(int nanos, Span<char> destination)
    {
        if (nanos == 0)
        {
            return 0;
        }

        var (value, digits) = nanos % 1_000_000 == 0 ? (nanos / 1_000_000, 3) : nanos % 1_000 == 0 ? (nanos / 1_000, 6) : (nanos, 9);
        destination[0] = '.';
        value.TryFormat(destination.Slice(1, digits), out _, digits == 3 ? "D3" : digits == 6 ? "D6" : "D9", CultureInfo.InvariantCulture);
        return digits + 1;
    }

    /// <summary>Reads an optional <c>.digits</c> (1 to 9) at the start of <paramref name="text"/> as nanoseconds.</summary>
    internal static int? ParseFraction(ref ReadOnlySpan<char> text)
    {
        if (text.IsEmpty || text[0] != '.')
        {
            return 0;
        }

        var end = text[1..].IndexOfAnyExceptInRange('0', '9');
        var digits = end < 0 ? text.Length - 1 : end;
        if (digits is 0 or > 9)
        {
            return null;
        }

        var nanos = int.Parse(text.Slice(1, digits), NumberStyles.None, CultureInfo.InvariantCulture);
        for (var i = digits; i < 9; i++)
        {
            nanos *= 10;
        }

        text = text[(digits + 1)..];
        return nanos;
    }

    private static ValueFormatException Invalid(string text) =>
        new($"'{FieldText.Shorten(text)}' is not a duration such as 1.5s.");
}
