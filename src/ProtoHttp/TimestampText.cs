using System.Globalization;
using System.Text;
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
    private const int SecondsPerDay = 86_400;

    /// <summary>The longest text: <c>9999-12-31T23:59:59.999999999Z</c>.</summary>
    public const int MaxUtf8Length = 30;

    public static string Format(Timestamp value)
    {
        Span<byte> text = stackalloc byte[MaxUtf8Length];
        return TryFormat(value, text, out var length)
            ? Encoding.ASCII.GetString(text[..length])
            : throw OutOfRange(value);
    }

    /// <summary>The exception for a value <see cref="TryFormat"/> refuses.</summary>
    public static InvalidOperationException OutOfRange(Timestamp value) =>
        new($"The Timestamp {value.Seconds}s {value.Nanos}ns is outside the range RFC 3339 can express.");

    /// <summary>
    /// Writes the text as ASCII into <paramref name="utf8"/> (at least <see cref="MaxUtf8Length"/> bytes), straight
    /// from the seconds so nanosecond precision survives; <see langword="false"/> when the value is out of range.
    /// </summary>
    public static bool TryFormat(Timestamp value, Span<byte> utf8, out int written)
    {
        var seconds = value.Seconds;
        var nanos = value.Nanos;
        if (seconds is < MinSeconds or > MaxSeconds || nanos is < 0 or > 999_999_999)
        {
            written = 0;
            return false;
        }

        var sinceYearOne = seconds - MinSeconds;
        var (year, month, day) = DateOnly.FromDayNumber((int)(sinceYearOne / SecondsPerDay));
        var time = (int)(sinceYearOne % SecondsPerDay);
        Digits(utf8[..4], year);
        utf8[4] = (byte)'-';
        Digits(utf8.Slice(5, 2), month);
        utf8[7] = (byte)'-';
        Digits(utf8.Slice(8, 2), day);
        utf8[10] = (byte)'T';
        Digits(utf8.Slice(11, 2), time / 3600);
        utf8[13] = (byte)':';
        Digits(utf8.Slice(14, 2), time / 60 % 60);
        utf8[16] = (byte)':';
        Digits(utf8.Slice(17, 2), time % 60);
        written = 19 + Fraction(utf8[19..], nanos);
        utf8[written++] = (byte)'Z';
        return true;
    }

    /// <exception cref="ValueFormatException">Not an RFC 3339 date-time in the years 1 to 9999.</exception>
    public static Timestamp Parse(ReadOnlySpan<char> text)
    {
        var span = text.Trim(" \t\r\n");
        if (span.Length < 20 || !TryParseDateTime(span[..19], out var time))
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

    // yyyy-MM-ddTHH:mm:ss (or a lower-case t). The plain form is read digit by digit, as it is in every timestamp
    // this server writes; anything else goes to DateTime's exact parser, which decides.
    private static bool TryParseDateTime(ReadOnlySpan<char> text, out DateTime time)
    {
        if (text[4] == '-' && text[7] == '-' && text[10] is 'T' or 't' && text[13] == ':' && text[16] == ':'
            && DigitValue(text[..4]) is var year and >= 1 && DigitValue(text.Slice(5, 2)) is var month and >= 1 and <= 12
            && DigitValue(text.Slice(8, 2)) is var day and >= 1 && day <= DateTime.DaysInMonth(year, month)
            && DigitValue(text.Slice(11, 2)) is var hour and >= 0 and < 24
            && DigitValue(text.Slice(14, 2)) is var minute and >= 0 and < 60
            && DigitValue(text.Slice(17, 2)) is var second and >= 0 and < 60)
        {
            time = new DateTime(year, month, day, hour, minute, second, DateTimeKind.Unspecified);
            return true;
        }

        return DateTime.TryParseExact(text, "yyyy'-'MM'-'dd'T'HH':'mm':'ss", CultureInfo.InvariantCulture, DateTimeStyles.None, out time)
            || DateTime.TryParseExact(text, "yyyy'-'MM'-'dd't'HH':'mm':'ss", CultureInfo.InvariantCulture, DateTimeStyles.None, out time);
    }

    // The value of ASCII digits, or -1.
    private static int DigitValue(ReadOnlySpan<char> text)
    {
        var value = 0;
        foreach (var c in text)
        {
            if (!char.IsAsciiDigit(c))
            {
                return -1;
            }

            value = (value * 10) + (c - '0');
        }

        return value;
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

    // The fewest of 0, 3, 6 or 9 digits that hold the nanoseconds exactly, as protobuf's JSON mapping asks.
    private static int Fraction(Span<byte> utf8, int nanos)
    {
        if (nanos == 0)
        {
            return 0;
        }

        utf8[0] = (byte)'.';
        if (nanos % 1_000_000 == 0)
        {
            Digits(utf8.Slice(1, 3), nanos / 1_000_000);
            return 4;
        }

        if (nanos % 1_000 == 0)
        {
            Digits(utf8.Slice(1, 6), nanos / 1_000);
            return 7;
        }

        Digits(utf8.Slice(1, 9), nanos);
        return 10;
    }

    private static void Digits(Span<byte> utf8, int value)
    {
        for (var i = utf8.Length - 1; i >= 0; i--)
        {
            utf8[i] = (byte)('0' + value % 10);
            value /= 10;
        }
    }

    private static ValueFormatException Invalid(ReadOnlySpan<char> text) =>
        new($"'{FieldText.Shorten(text.ToString())}' is not an RFC 3339 timestamp such as 1972-01-01T10:00:20.021Z.");
}
