using System.Globalization;
using Google.Protobuf;
using Google.Protobuf.Reflection;

namespace ProtoHttp;

/// <summary>
/// The text form of one field value, shared by the XML codec and the form binder (docs/protocol.md section 4):
/// <c>XmlConvert</c>-style scalars, enums by name or number, bytes in base64, well-known types as the text of
/// their JSON form. Values are the objects protobuf reflection uses (boxed scalars, <see cref="ByteString"/>,
/// messages; a wrapper field's value is its unwrapped scalar).
/// </summary>
internal static class FieldText
{
    private const int ShownValueLength = 64;

    /// <summary>Parses one value of <paramref name="field"/>'s type (an element, for repeated fields).</summary>
    /// <exception cref="ValueFormatException">The text is not a value of that type.</exception>
    public static object Parse(FieldDescriptor field, string text) => field.FieldType switch
    {
        FieldType.String => text,
        FieldType.Bytes => ParseBytes(text),
        FieldType.Enum => ParseEnum(field.EnumType, text),
        FieldType.Message or FieldType.Group when WellKnownText.IsText(field.MessageType) => WellKnownText.Parse(field.MessageType, text),
        FieldType.Message or FieldType.Group => throw new ValueFormatException($"{field.MessageType.Name} is a message; it has no text form."),
        _ => ParseScalar(field.FieldType, text),
    };

    /// <summary>Parses a number or bool; whitespace around it is ignored, as <c>XmlConvert</c> does.</summary>
    public static object ParseScalar(FieldType type, string text)
    {
        object? value = type switch
        {
            FieldType.Bool => TryParseScalar<bool>(text, out var b) ? b : null,
            FieldType.Int32 or FieldType.SInt32 or FieldType.SFixed32 => TryParseScalar<int>(text, out var i) ? i : null,
            FieldType.Int64 or FieldType.SInt64 or FieldType.SFixed64 => TryParseScalar<long>(text, out var l) ? l : null,
            FieldType.UInt32 or FieldType.Fixed32 => TryParseScalar<uint>(text, out var u) ? u : null,
            FieldType.UInt64 or FieldType.Fixed64 => TryParseScalar<ulong>(text, out var ul) ? ul : null,
            FieldType.Double => TryParseScalar<double>(text, out var d) ? d : null,
            FieldType.Float => TryParseScalar<float>(text, out var f) ? f : null,
            _ => null,
        };
        return value ?? throw InvalidScalar(type, text);
    }

    /// <summary>The exception for text that is not a number or bool of <paramref name="type"/>.</summary>
    public static ValueFormatException InvalidScalar(FieldType type, string text) => new($"'{Shorten(text)}' is not a valid {TypeName(type)}.");

    /// <summary>
    /// <see cref="ParseScalar"/> without boxing or a string, for the C# type of a number or bool field (bool, int,
    /// long, uint, ulong, double, float); <see langword="false"/> exactly where ParseScalar throws.
    /// </summary>
    public static bool TryParseScalar<T>(ReadOnlySpan<char> text, out T value)
        where T : struct
    {
        // typeof(T) tests are constants to the JIT: each instantiation keeps one branch, and the casts through object vanish.
        var span = text.Trim(" \t\r\n");
        const NumberStyles Integer = NumberStyles.AllowLeadingSign;
        var invariant = CultureInfo.InvariantCulture;
        bool parsed;
        if (typeof(T) == typeof(bool))
        {
            var flag = ParseBool(span);
            parsed = flag.HasValue;
            value = (T)(object)flag.GetValueOrDefault();
        }
        else if (typeof(T) == typeof(int))
        {
            parsed = int.TryParse(span, Integer, invariant, out var number);
            value = (T)(object)number;
        }
        else if (typeof(T) == typeof(long))
        {
            parsed = long.TryParse(span, Integer, invariant, out var number);
            value = (T)(object)number;
        }
        else if (typeof(T) == typeof(uint))
        {
            parsed = uint.TryParse(span, Integer, invariant, out var number);
            value = (T)(object)number;
        }
        else if (typeof(T) == typeof(ulong))
        {
            parsed = ulong.TryParse(span, Integer, invariant, out var number);
            value = (T)(object)number;
        }
        else if (typeof(T) == typeof(double))
        {
            var number = ParseDouble(span);
            parsed = number.HasValue;
            value = (T)(object)number.GetValueOrDefault();
        }
        else if (typeof(T) == typeof(float))
        {
            var number = ParseFloat(span);
            parsed = number.HasValue;
            value = (T)(object)number.GetValueOrDefault();
        }
        else
        {
            throw new NotSupportedException($"{typeof(T)} is not the type of a number or bool field.");
        }

        return parsed;
    }

    /// <summary>
    /// Formats a number or bool as ASCII that needs no escaping, or returns <see langword="false"/> for the
    /// other kinds (use <see cref="Format"/>) or when <paramref name="destination"/> is too small.
    /// </summary>
    public static bool TryFormatScalar(FieldType type, object value, Span<char> destination, out int written)
    {
        var invariant = CultureInfo.InvariantCulture;
        switch (type)
        {
            case FieldType.Bool:
                return TryCopy((bool)value ? "true" : "false", destination, out written);
            case FieldType.Int32 or FieldType.SInt32 or FieldType.SFixed32:
                return ((int)value).TryFormat(destination, out written, default, invariant);
            case FieldType.Int64 or FieldType.SInt64 or FieldType.SFixed64:
                return ((long)value).TryFormat(destination, out written, default, invariant);
            case FieldType.UInt32 or FieldType.Fixed32:
                return ((uint)value).TryFormat(destination, out written, default, invariant);
            case FieldType.UInt64 or FieldType.Fixed64:
                return ((ulong)value).TryFormat(destination, out written, default, invariant);
            case FieldType.Double:
                return TryFormatDouble((double)value, destination, out written);
            case FieldType.Float:
                return TryFormatFloat((float)value, destination, out written);
            default:
                written = 0;
                return false;
        }
    }

    /// <summary>The text of any value of <paramref name="field"/>'s type.</summary>
    public static string Format(FieldDescriptor field, object value)
    {
        switch (field.FieldType)
        {
            case FieldType.String:
                return (string)value;
            case FieldType.Bytes:
                return ((ByteString)value).ToBase64();
            case FieldType.Enum:
                var number = (int)value;
                return field.EnumType.FindValueByNumber(number)?.Name ?? number.ToString(CultureInfo.InvariantCulture);
            case FieldType.Message or FieldType.Group:
                return WellKnownText.Format(field.MessageType, value);
            default:
                Span<char> buffer = stackalloc char[32];
                TryFormatScalar(field.FieldType, value, buffer, out var written);
                return new string(buffer[..written]);
        }
    }

    /// <summary>Base64, standard or URL-safe, padding optional, so values copied from either kind of tool work.</summary>
    public static ByteString ParseBytes(ReadOnlySpan<char> text)
    {
        var trimmed = text.Trim(" \t\r\n");

        // Standard padded base64, as every writer of this mapping sends it, decodes without a copy of the text.
        if (trimmed.Length % 4 == 0)
        {
            var decoded = new byte[trimmed.Length / 4 * 3];
            if (Convert.TryFromBase64Chars(trimmed, decoded, out var written))
            {
                return UnsafeByteOperations.UnsafeWrap(decoded.AsMemory(0, written));
            }
        }

        var padding = (4 - (trimmed.Length % 4)) % 4;
        var chars = new char[trimmed.Length + padding];
        for (var i = 0; i < trimmed.Length; i++)
        {
            chars[i] = trimmed[i] switch { '-' => '+', '_' => '/', var c => c };
        }

        chars.AsSpan(trimmed.Length).Fill('=');
        var bytes = new byte[chars.Length / 4 * 3];
        return padding < 3 && Convert.TryFromBase64Chars(chars, bytes, out var count)
            ? UnsafeByteOperations.UnsafeWrap(bytes.AsMemory(0, count))
            : throw new ValueFormatException($"'{Shorten(text.ToString())}' is not valid base64.");
    }

    /// <summary>Shortens a client's value for an error message, so a 400 never echoes a whole body.</summary>
    public static string Shorten(string text) => text.Length <= ShownValueLength ? text : string.Concat(text.AsSpan(0, ShownValueLength), "…");

    private static int ParseEnum(EnumDescriptor type, string text)
    {
        var name = text.Trim(" \t\r\n".ToCharArray());
        if (type.FindValueByName(name) is { } named)
        {
            return named.Number;
        }

        // Any number is accepted: proto3 enums are open, and C# keeps unknown proto2 numbers too.
        return int.TryParse(name, NumberStyles.AllowLeadingSign, CultureInfo.InvariantCulture, out var number)
            ? number
            : throw new ValueFormatException($"'{Shorten(text)}' is not a value of enum {type.Name}.");
    }

    private static bool? ParseBool(ReadOnlySpan<char> text) =>
        text.Equals("true", StringComparison.OrdinalIgnoreCase) || text is "1" ? true
        : text.Equals("false", StringComparison.OrdinalIgnoreCase) || text is "0" ? false
        : null;

    private static double? ParseDouble(ReadOnlySpan<char> text) => text switch
    {
        "NaN" => double.NaN,
        "INF" or "Infinity" => double.PositiveInfinity,
        "-INF" or "-Infinity" => double.NegativeInfinity,
        _ => double.TryParse(text, NumberStyles.Float, CultureInfo.InvariantCulture, out var d) && double.IsFinite(d) ? d : null,
    };

    // A finite double beyond float's range must not silently become an infinity.
    private static float? ParseFloat(ReadOnlySpan<char> text) =>
        ParseDouble(text) is { } d && (!double.IsFinite(d) || float.IsFinite((float)d)) ? (float)d : null;

    // "R" is the shortest text that round-trips; XmlConvert spells the infinities INF and -INF.
    private static bool TryFormatDouble(double value, Span<char> destination, out int written) => double.IsInfinity(value)
        ? TryCopy(value > 0 ? "INF" : "-INF", destination, out written)
        : value.TryFormat(destination, out written, "R", CultureInfo.InvariantCulture);

    private static bool TryFormatFloat(float value, Span<char> destination, out int written) => float.IsInfinity(value)
        ? TryCopy(value > 0 ? "INF" : "-INF", destination, out written)
        : value.TryFormat(destination, out written, "R", CultureInfo.InvariantCulture);

    private static bool TryCopy(string text, Span<char> destination, out int written)
    {
        written = text.Length;
        return text.TryCopyTo(destination);
    }

    private static string TypeName(FieldType type) => type switch
    {
        FieldType.SInt32 or FieldType.SFixed32 => "int32",
        FieldType.SInt64 or FieldType.SFixed64 => "int64",
        FieldType.Fixed32 => "uint32",
        FieldType.Fixed64 => "uint64",
        _ => type.ToString().ToLowerInvariant(),
    };
}
