using System.Globalization;
using System.Numerics;

namespace ProtoHttp.Xml;

/// <summary>double and float: round-trip ("R") text, with <c>NaN</c> and XmlConvert's <c>INF</c> and <c>-INF</c>.</summary>
internal sealed class XmlFloatingWriter<T> : XmlValueWriter<T>
    where T : IFloatingPointIeee754<T>
{
    // The longest "R" text, -1.7976931348623157E+308, is 24 bytes; ShortDecimalText's is shorter.
    private const int MaxLength = 32;

    public static XmlFloatingWriter<T> Instance { get; } = new();

    public override void Write(ref Utf8Output output, T value)
    {
        if (T.IsInfinity(value))
        {
            output.Write(T.IsNegative(value) ? "-INF"u8 : "INF"u8);
            return;
        }

        // Prices and quantities take the short path; the rest the runtime's shortest-digits search.
        var span = output.Reserve(MaxLength);
        if (!ShortDecimalText.TryFormat(double.CreateTruncating(value), typeof(T) == typeof(float), span, out var written))
        {
            value.TryFormat(span, out written, "R", CultureInfo.InvariantCulture);
        }

        output.Advance(written);
    }

    // -0.0 == 0.0: a proto3 -0 is unset, as the binary encoding decides.
    public override bool IsDefault(T value) => T.IsZero(value);
}
