using Google.Protobuf.WellKnownTypes;

namespace ProtoHttp.Json;

/// <summary>
/// Timestamp as JsonFormatter writes it: quoted RFC 3339 in UTC with a Z and 0, 3, 6 or 9 fraction digits. Natively,
/// since Northwind orders carry three each; out-of-range values go to JsonFormatter for its exception.
/// </summary>
internal sealed class JsonTimestampWriter(JsonMessageWriter owner) : JsonValueWriter<Timestamp>
{
    private const long MinSeconds = -62_135_596_800; // 0001-01-01T00:00:00Z
    private const long MaxSeconds = 253_402_300_799; // 9999-12-31T23:59:59Z
    private const int SecondsPerDay = 86_400;

    public override void Write(ref Utf8Output output, Timestamp value)
    {
        var seconds = value.Seconds;
        var nanos = value.Nanos;
        if (seconds is < MinSeconds or > MaxSeconds || nanos is < 0 or > 999_999_999)
        {
            owner.WriteDelegated(ref output, value);
            return;
        }

        var sinceYearOne = seconds - MinSeconds;
        var (year, month, day) = DateOnly.FromDayNumber((int)(sinceYearOne / SecondsPerDay));
        var time = (int)(sinceYearOne % SecondsPerDay);

        var span = output.Reserve(32);
        span[0] = (byte)'"';
        Digits(span.Slice(1, 4), year);
        span[5] = (byte)'-';
        Digits(span.Slice(6, 2), month);
        span[8] = (byte)'-';
        Digits(span.Slice(9, 2), day);
        span[11] = (byte)'T';
        Digits(span.Slice(12, 2), time / 3600);
        span[14] = (byte)':';
        Digits(span.Slice(15, 2), time / 60 % 60);
        span[17] = (byte)':';
        Digits(span.Slice(18, 2), time % 60);
        var length = 20 + Fraction(span[20..], nanos);
        span[length] = (byte)'Z';
        span[length + 1] = (byte)'"';
        output.Advance(length + 2);
    }

    // The fewest of 0, 3, 6 or 9 digits that hold the nanoseconds exactly, as protobuf's JSON mapping asks.
    private static int Fraction(Span<byte> span, int nanos)
    {
        if (nanos == 0)
        {
            return 0;
        }

        span[0] = (byte)'.';
        if (nanos % 1_000_000 == 0)
        {
            Digits(span.Slice(1, 3), nanos / 1_000_000);
            return 4;
        }

        if (nanos % 1_000 == 0)
        {
            Digits(span.Slice(1, 6), nanos / 1_000);
            return 7;
        }

        Digits(span.Slice(1, 9), nanos);
        return 10;
    }

    private static void Digits(Span<byte> span, int value)
    {
        for (var i = span.Length - 1; i >= 0; i--)
        {
            span[i] = (byte)('0' + value % 10);
            value /= 10;
        }
    }
}
