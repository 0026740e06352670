using System.Globalization;
using System.Numerics;

namespace ProtoHttp.Xml;

/// <summary>The 32- and 64-bit integer types, signed and unsigned: invariant decimal digits.</summary>
internal sealed class XmlIntegerWriter<T> : XmlValueWriter<T>
    where T : IBinaryInteger<T>
{
    // 20 digits and a sign hold any 64-bit integer.
    private const int MaxLength = 21;

    public static XmlIntegerWriter<T> Instance { get; } = new();

    public override void Write(ref Utf8Output output, T value)
    {
        value.TryFormat(output.Reserve(MaxLength), out var written, default, CultureInfo.InvariantCulture);
        output.Advance(written);
    }

    public override bool IsDefault(T value) => T.IsZero(value);
}
