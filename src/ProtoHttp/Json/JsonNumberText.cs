using System.Globalization;

namespace ProtoHttp.Json;

/// <summary>Numbers straight into UTF-8, in the invariant culture JsonFormatter formats them in.</summary>
internal static class JsonNumberText
{
    // Longest "R" double text is 24 bytes (-1.7976931348623157E+308), 64-bit integers 20, plus two quotes.
    private const int MaxLength = 32;

    public static void Write<T>(ref Utf8Output output, T value, bool quoted)
        where T : IUtf8SpanFormattable
    {
        var span = output.Reserve(MaxLength);
        if (quoted)
        {
            value.TryFormat(span[1..], out var written, default, CultureInfo.InvariantCulture);
            span[0] = (byte)'"';
            span[written + 1] = (byte)'"';
            output.Advance(written + 2);
        }
        else
        {
            value.TryFormat(span, out var written, default, CultureInfo.InvariantCulture);
            output.Advance(written);
        }
    }

    /// <summary>
    /// JsonFormatter's float and double: round-trip ("r", lower-case exponent) text, with NaN and the infinities quoted because JSON has no
    /// literal for them (the invariant culture spells them NaN, Infinity and -Infinity).
    /// </summary>
    public static void WriteFloating<T>(ref Utf8Output output, T value, bool finite)
        where T : IUtf8SpanFormattable
    {
        var span = output.Reserve(MaxLength);
        var offset = finite ? 0 : 1;
        value.TryFormat(span[offset..], out var written, "r", CultureInfo.InvariantCulture);
        if (!finite)
        {
            span[0] = (byte)'"';
            span[written + 1] = (byte)'"';
        }

        output.Advance(written + offset * 2);
    }
}
