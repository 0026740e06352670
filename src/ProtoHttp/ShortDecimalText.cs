namespace ProtoHttp;

/// <summary>
/// The round-trip ("R") text of a float or double, byte for byte as the runtime writes it, for the values data mostly
/// holds: decimals with at most six fraction digits between 0.001 and 1,000,000 (a price, 32.38). For those the
/// shortest text that reads back as the value is the decimal with the fewest fraction digits that does, so it is
/// found by scaling, which costs a fraction of the runtime's general shortest-digits search (a quarter of writing
/// the Northwind orders as XML went there). Anything else, or a value two such decimals read back as, is left to
/// the runtime's formatter.
/// </summary>
internal static class ShortDecimalText
{
    private const int MaxFractionDigits = 6;
    private const double Smallest = 0.001;
    private const double Largest = 1_000_000;

    /// <summary>The longest text written: a minus, six integer digits, a point and six fraction digits.</summary>
    public const int MaxLength = 14;

    // A field, not a span property: a collection expression of doubles is a new array on every access.
    private static readonly double[] PowersOfTen = [1, 10, 100, 1e3, 1e4, 1e5, 1e6];

    /// <summary>
    /// Writes <paramref name="value"/> (a float's value when <paramref name="single"/>) as "R" formats it, as ASCII
    /// into at least <see cref="MaxLength"/> bytes; <see langword="false"/> when the caller must format it.
    /// </summary>
    public static bool TryFormat(double value, bool single, Span<byte> utf8, out int written)
    {
        written = 0;
        var magnitude = Math.Abs(value);
        if (!(magnitude is >= Smallest and < Largest))
        {
            return false;
        }

        for (var digits = 0; digits <= MaxFractionDigits; digits++)
        {
            var scale = PowersOfTen[digits];
            var scaled = Math.Round(magnitude * scale);
            if (!ReadsBackAs(scaled, scale, magnitude, single))
            {
                continue;
            }

            // The fewest digits that read back as the value are the shortest text, unless a neighbour with as many
            // digits does too: then the runtime picks the closest, which scaling in binary cannot promise to find.
            if (ReadsBackAs(scaled - 1, scale, magnitude, single) || ReadsBackAs(scaled + 1, scale, magnitude, single))
            {
                return false;
            }

            Write(utf8, (long)scaled, digits, value < 0, out written);
            return true;
        }

        return false;
    }

    // What reading "n / 10^digits" back gives. Division of two exact integers rounds once, as parsing does; for a
    // float the double is rounded again, which with at most six fraction digits below 2^24 lands where a direct
    // parse would (the decimal is never within a double's error of a point halfway between two floats unless it is one).
    private static bool ReadsBackAs(double scaled, double scale, double magnitude, bool single) =>
        single ? (float)(scaled / scale) == (float)magnitude : scaled / scale == magnitude;

    private static void Write(Span<byte> utf8, long scaled, int digits, bool negative, out int written)
    {
        var position = 0;
        if (negative)
        {
            utf8[position++] = (byte)'-';
        }

        var divisor = (long)PowersOfTen[digits];
        var whole = scaled / divisor;
        var fraction = scaled % divisor;
        position += WriteDigits(utf8[position..], whole, minimumDigits: 1);
        if (digits > 0)
        {
            utf8[position++] = (byte)'.';
            position += WriteDigits(utf8[position..], fraction, minimumDigits: digits);
        }

        written = position;
    }

    private static int WriteDigits(Span<byte> utf8, long value, int minimumDigits)
    {
        var count = 1;
        for (var rest = value / 10; rest > 0; rest /= 10)
        {
            count++;
        }

        count = Math.Max(count, minimumDigits);
        for (var i = count - 1; i >= 0; i--)
        {
            utf8[i] = (byte)('0' + (value % 10));
            value /= 10;
        }

        return count;
    }
}
