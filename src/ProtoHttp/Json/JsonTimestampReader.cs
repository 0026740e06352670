using System.Text;
using System.Text.Json;
using Google.Protobuf.WellKnownTypes;

namespace ProtoHttp.Json;

/// <summary>
/// Timestamp as JsonParser reads it: <c>yyyy-MM-ddTHH:mm:ss</c>, 1 to 9 fraction digits, <c>Z</c> or an offset of at
/// most 18 hours (not <c>-00:00</c>), within years 1 to 9999. JsonParser's pattern ends in <c>$</c>, which also
/// matches before a final line feed, so one trailing "\n" is accepted as it is there.
/// </summary>
internal sealed class JsonTimestampReader(JsonMessageReader owner) : JsonValueReader<Timestamp>
{
    private const long MinSeconds = -62_135_596_800; // 0001-01-01T00:00:00Z
    private const long MaxSeconds = 253_402_300_799; // 9999-12-31T23:59:59Z

    public override bool TryRead(ref JsonInput input, int depth, out Timestamp value)
    {
        // JsonParser counts a Timestamp as a nested message.
        owner.CheckDepth(depth + 1);
        ref var reader = ref input.Reader;
        if (reader.TokenType != JsonTokenType.String)
        {
            throw JsonTokens.Unexpected(ref reader, "an RFC 3339 timestamp string");
        }

        Span<byte> buffer = stackalloc byte[64];
        var text = JsonText.Utf8(in reader, buffer);
        value = Parse(text) ?? throw new ValueFormatException($"Invalid Timestamp value: \"{Encoding.UTF8.GetString(text)}\".");
        return true;
    }

    private static Timestamp? Parse(ReadOnlySpan<byte> text)
    {
        if (text.EndsWith("\n"u8))
        {
            text = text[..^1];
        }

        if (text.Length < 20 || text[4] != '-' || text[7] != '-' || text[10] != 'T' || text[13] != ':' || text[16] != ':'
            || !TryDigits(text[..4], out var year) || !TryDigits(text.Slice(5, 2), out var month) || !TryDigits(text.Slice(8, 2), out var day)
            || !TryDigits(text.Slice(11, 2), out var hour) || !TryDigits(text.Slice(14, 2), out var minute) || !TryDigits(text.Slice(17, 2), out var second)
            || year < 1 || month is < 1 or > 12 || day < 1 || day > DateTime.DaysInMonth(year, month) || hour > 23 || minute > 59 || second > 59)
        {
            return null;
        }

        var rest = text[19..];
        var nanos = 0;
        if (rest[0] == '.')
        {
            var digits = rest[1..].IndexOfAnyExceptInRange((byte)'0', (byte)'9');
            if (digits is < 1 or > 9 || !TryDigits(rest.Slice(1, digits), out nanos))
            {
                return null;
            }

            for (var i = digits; i < 9; i++)
            {
                nanos *= 10;
            }

            rest = rest[(digits + 1)..];
        }

        long offsetSeconds = 0;
        if (rest is not [(byte)'Z'])
        {
            if (rest.Length != 6 || rest[0] is not ((byte)'+' or (byte)'-') || rest[3] != ':'
                || !TryDigits(rest.Slice(1, 2), out var offsetHours) || !TryDigits(rest.Slice(4, 2), out var offsetMinutes)
                || offsetMinutes > 59)
            {
                return null;
            }

            var minutes = offsetHours * 60 + offsetMinutes;
            if (minutes > 18 * 60 || minutes == 0 && rest[0] == '-')
            {
                return null;
            }

            offsetSeconds = rest[0] == '-' ? -minutes * 60L : minutes * 60L;
        }

        var local = new DateTime(year, month, day, hour, minute, second, DateTimeKind.Utc);
        var seconds = (local.Ticks - DateTime.UnixEpoch.Ticks) / TimeSpan.TicksPerSecond - offsetSeconds;
        return seconds is >= MinSeconds and <= MaxSeconds ? new Timestamp { Seconds = seconds, Nanos = nanos } : null;
    }

    // ASCII digits only, as JsonParser's [0-9].
    private static bool TryDigits(ReadOnlySpan<byte> text, out int value)
    {
        value = 0;
        foreach (var b in text)
        {
            if (b is < (byte)'0' or > (byte)'9')
            {
                return false;
            }

            value = value * 10 + (b - '0');
        }

        return true;
    }
}
