using System.Buffers;
using System.Globalization;
using System.Numerics;
using System.Text;
using System.Text.Json;

namespace ProtoHttp.Json;

/// <summary>JsonParser's rules for numbers: JSON numbers go through <see cref="double"/>, quoted numbers through .NET parsing.</summary>
internal static class JsonNumberReading
{
    private const NumberStyles QuotedStyles = NumberStyles.AllowLeadingSign | NumberStyles.AllowDecimalPoint | NumberStyles.AllowExponent;

    // Integers whose doubles are exact: JsonParser reads every JSON number as a double, so larger ones round first.
    private const long MaxExactInteger = 1L << 53;

    /// <summary>A JSON number token as JsonParser's tokenizer reads it: a double, refused when it is out of range.</summary>
    public static double Double(ref Utf8JsonReader reader) => reader.TryGetDouble(out var value) && double.IsFinite(value)
        ? value
        : throw new ValueFormatException($"Numeric value out of range: {Text(ref reader)}.");

    /// <summary>A JSON number token for an integer field of the given range (bounds exact as doubles).</summary>
    public static double Integer(ref Utf8JsonReader reader, double min, double maxExclusive)
    {
        if (reader.TryGetInt64(out var exact) && exact is >= -MaxExactInteger and <= MaxExactInteger)
        {
            return exact >= min && exact < maxExclusive ? exact : throw OutOfRange(ref reader);
        }

        var value = Double(ref reader);
        if (value != Math.Floor(value))
        {
            throw new ValueFormatException($"Value not an integer: {Text(ref reader)}.");
        }

        return value >= min && value < maxExclusive ? value : throw OutOfRange(ref reader);
    }

    /// <summary>A quoted number as JsonParser parses it: no '+', no leading zeros, sign, point and exponent allowed.</summary>
    public static T Quoted<T>(ref Utf8JsonReader reader)
        where T : INumberBase<T>
    {
        Span<byte> buffer = stackalloc byte[64];
        var text = JsonText.Utf8(in reader, buffer);
        var leadingZero = text.Length > 1 && text[0] == '0' && char.IsAsciiDigit((char)text[1])
            || text.Length > 2 && text[0] == '-' && text[1] == '0' && char.IsAsciiDigit((char)text[2]);
        if (text.IsEmpty || text[0] == '+' || leadingZero || !T.TryParse(text, QuotedStyles, CultureInfo.InvariantCulture, out var value))
        {
            throw new ValueFormatException($"Invalid numeric value for {typeof(T).Name}: \"{Encoding.UTF8.GetString(text)}\".");
        }

        // .NET also reads "infinity", "∞" and out-of-range text as infinity; JsonParser takes only its own spellings.
        if (T.IsNaN(value) && !text.SequenceEqual("NaN"u8)
            || T.IsPositiveInfinity(value) && !text.SequenceEqual("Infinity"u8)
            || T.IsNegativeInfinity(value) && !text.SequenceEqual("-Infinity"u8))
        {
            throw new ValueFormatException($"Invalid numeric value: \"{Encoding.UTF8.GetString(text)}\".");
        }

        return value;
    }

    private static ValueFormatException OutOfRange(ref Utf8JsonReader reader) => new($"Value out of range: {Text(ref reader)}.");

    private static string Text(ref Utf8JsonReader reader) => Encoding.UTF8.GetString(reader.HasValueSequence ? reader.ValueSequence.ToArray() : reader.ValueSpan);
}
