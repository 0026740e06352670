using System.Globalization;
using Google.Protobuf.WellKnownTypes;

namespace ProtoHttp;

/// <summary>
/// RFC 3339 text for <see cref="Timestamp"/>, exactly as protobuf's JSON mapping writes it (UTC, <c>Z</c>, 0, 3, 6
/// or 9 fraction digits) and reading any offset. Nanosecond precision, which <see cref="DateTime"/> lacks.
/// </summary>
internal static class TimestampText
{
    private const long MinSeconds = -62_135_596_800; // 0001-01-01T00:00:00Z
    private const long MaxSeconds = 253_402_300_799; // 9999-12-31T23:59:59Z

    public static string Format(Timestamp value)
    {
        if (value.Seconds is < MinSeconds or > MaxSeconds || value.Nanos is < 0 or > 999_999_999)
        {
            throw new InvalidOperationException($"The Timestamp {value.Seconds}s {value.Nanos}ns is outside the range RFC 3339 can express.");
        }

        var time = DateTime.UnixEpoch.AddSeconds(value.Seconds);
        Span<char> text = stackalloc char[32];
        time.TryFormat(text, out var length, "yyyy'-'MM'-'dd'T'HH':'mm':'ss", CultureInfo.InvariantCulture);
        length += DurationText.FormatFraction(value.Nanos, text[length..]);
        text[length++] = 'Z';
        return new string(text[..length]);
    }

    /// <exception cref="ValueFormatException">Not an RFC 3339 date-time in the years 1 to 9999.</exception>
    public static Timestamp Parse(string text)
    {
        var span = text.AsSpan().Trim(" \t\r\n");
        if (span.Length < 20
            || !DateTime.TryParseExact(span[..19], "yyyy'-'MM'-'dd'T'HH':'mm':'ss", CultureInfo.InvariantCulture, DateTimeStyles.None, out var time)
            && !DateTime.TryParseExact(span[..19], "yyyy'-'MM'-'dd't'HH':'mm':'ss", CultureInfo.InvariantCulture, DateTimeStyles.None, out time))
        {
            throw Invalid(text);
        }

        var rest = span[19..];
        var nanos = DurationText.ParseFraction(ref rest) ?? throw Invalid(text);
        var offsetSeconds = ParseOffset(rest) ?? throw Invalid(text);
        var seconds = (time.Ticks - DateTime.UnixEpoch.Ticks) / TimeSpan.TicksPerSecond - offsetSeconds;
        return seconds is >= MinSeconds and <= MaxSeconds
            ? new Timestamp { Seconds = seconds, Nanos = nanos }
            : throw Invalid(text);
    }

    private static long? ParseOffset(ReadOnlySpan<char> text)
    {
        if (text is "Z" or "z")
        {
            return 0;
        }

        if (text.Length != 6 || text[0] is not ('+' or '-') || text[3] != ':'
            || !int.TryParse(text[1..3], NumberStyles.None, CultureInfo.InvariantCulture, out var hours)
            || !int.TryParse(text[4..6], NumberStyles.None, CultureInfo.InvariantCulture, out var minutes)
            || hours > 23 || minutes > 59)
        {
            return null;
        }

        var seconds = (hours * 60L + minutes) * 60;
        return text[0] == '-' ? -seconds : seconds;
    }

    private static ValueFormatException Invalid(string text) =>
        new($"'{FieldText.Shorten(text)}' is not an RFC 3339 timestamp such as 1972-01-01T10:00:20.021Z.");
}
