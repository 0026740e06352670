using System.Globalization;
using System.Numerics;

namespace ProtoHttp.Xml;

/// <summary>double and float: round-trip ("R") text, with <c>NaN</c> and XmlConvert's <c>INF</c> and <c>-INF</c>.</summary>
internal sealed class XmlFloatingWriter<T> : XmlValueWriter<T>
    where T : IFloatingPointIeee754<T>
{
    // The longest "R" text, -1.7976931348623157E+308, is 24 bytes.
    private const int MaxLength = 32;

    public static XmlFloatingWriter<T> Instance { get; } = new();

    public override void Write(ref Utf8Output output, T value)
    {
        if (T.IsInfinity(value))
        {
            output.Write(T.IsNegative(value) ? "-INF"u8 : "INF"u8);
            return;
        }

        value.TryFormat(output.Reserve(MaxLength), out var written, "R", CultureInfo.InvariantCulture);
        output.Advance(written);
    }

    // -0.0 == 0.0: a proto3 -0 is unset, as the binary encoding decides.
    public override bool IsDefault(T value) => T.IsZero(value);
}
