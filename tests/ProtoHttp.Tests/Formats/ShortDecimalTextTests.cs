using System.Globalization;
using System.Text;

namespace ProtoHttp.Tests.Formats;

/// <summary>ShortDecimalText writes exactly what the runtime's "R" writes, wherever it takes a value at all.</summary>
public class ShortDecimalTextTests
{
    [Theory]
    [InlineData(32.38f, "32.38")]
    [InlineData(14f, "14")]
    [InlineData(0.05f, "0.05")]
    [InlineData(-0.001f, "-0.001")]
    [InlineData(999999.9f, "999999.9")]
    [InlineData(0.123457f, "0.123457")]
    public void PricesAndDiscountsTakeTheShortPath(float value, string expected)
    {
        Assert.Equal(expected, Format(value, single: true));
        Assert.Equal(expected, value.ToString("R", CultureInfo.InvariantCulture));
    }

    [Theory]
    [InlineData(0.0)]
    [InlineData(double.NegativeInfinity)]
    [InlineData(double.NaN)]
    [InlineData(double.PositiveInfinity)]
    [InlineData(0.0009)]
    [InlineData(1_000_000.0)]
    [InlineData(0.1234567)]
    [InlineData(1e300)]
    public void OtherValuesAreLeftToTheRuntime(double value)
    {
        Assert.Null(Format(value, single: false));
        Assert.Null(Format(-value, single: true));
    }

    [Fact]
    public void EveryShortDecimalAndItsNeighboursMatchTheRuntime()
    {
        var taken = 0;
        for (var digits = 0; digits <= 6; digits++)
        {
            var scale = Math.Pow(10, digits);
            for (long n = 1; n < 1_000_000_000; n = n < 20_000 ? n + 1 : n + 7_919 + (n / 50))
            {
                var number = n / scale;
                foreach (var value in new[] { number, Math.BitIncrement(number), Math.BitDecrement(number), -number })
                {
                    taken += Check(value);
                    var single = (float)value;
                    taken += Check(single);
                    taken += Check(MathF.BitIncrement(single)) + Check(MathF.BitDecrement(single));
                }
            }
        }

        // Most of them take the short path, so the comparison above is not vacuous.
        Assert.True(taken > 300_000, $"only {taken} values took the short path");
    }

    [Fact]
    public void SeededRandomBitPatternsMatchTheRuntime()
    {
        var random = new Random(20261126);
        var bits = new byte[8];
        var taken = 0;
        for (var i = 0; i < 2_000_000; i++)
        {
            // Floats between 2^-10 and 2^20 (just around the short path's range), any sign and mantissa.
            var single = BitConverter.Int32BitsToSingle((random.Next(117, 148) << 23) | random.Next(0, 1 << 23) | (random.Next(2) << 31));
            taken += Check(single);
            random.NextBytes(bits);
            var mantissa = BitConverter.ToInt64(bits) & ((1L << 52) - 1);
            taken += Check(BitConverter.Int64BitsToDouble(((long)random.Next(1013, 1044) << 52) | mantissa));
            taken += Check(Math.Round(random.NextDouble() * 1_000_000, random.Next(0, 7)));
        }

        Assert.True(taken > 100_000, $"only {taken} values took the short path");
    }

    private static int Check(float value)
    {
        var text = Format(value, single: true);
        if (text is null)
        {
            return 0;
        }

        Assert.Equal(value.ToString("R", CultureInfo.InvariantCulture), text);
        return 1;
    }

    private static int Check(double value)
    {
        var text = Format(value, single: false);
        if (text is null)
        {
            return 0;
        }

        Assert.Equal(value.ToString("R", CultureInfo.InvariantCulture), text);
        return 1;
    }

    private static string? Format(double value, bool single)
    {
        Span<byte> utf8 = stackalloc byte[ShortDecimalText.MaxLength];
        return ShortDecimalText.TryFormat(value, single, utf8, out var written) ? Encoding.ASCII.GetString(utf8[..written]) : null;
    }
}
