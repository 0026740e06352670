using Google.Protobuf;
using Google.Protobuf.Reflection;
using Google.Protobuf.WellKnownTypes;

namespace ProtoHttp;

/// <summary>
/// Well-known types that travel as one text value in XML and forms: the text of their JSON form
/// (PROTOCOL.md section 4). Timestamp and Duration are formatted here rather than through
/// <see cref="JsonFormatter"/> because they are common on the hot path (three per Northwind order).
/// </summary>
internal static class WellKnownText
{
    /// <summary>Whether values of this message type are written as text rather than as nested elements.</summary>
    public static bool IsText(MessageDescriptor descriptor) => KindOf(descriptor) != Kind.None;

    /// <exception cref="ValueFormatException">The text is not a value of that type.</exception>
    public static object Parse(MessageDescriptor descriptor, string text) => KindOf(descriptor) switch
    {
        Kind.Timestamp => TimestampText.Parse(text),
        Kind.Duration => DurationText.Parse(text),
        // C# exposes a wrapper field as its nullable scalar, so reflection wants the bare value.
        Kind.Wrapper => FieldText.Parse(WrappedField(descriptor), text),
        Kind.FieldMask => ParseJson(descriptor, $"\"{text}\""),
        Kind.Empty when string.IsNullOrWhiteSpace(text) => new Empty(),
        _ => ParseJson(descriptor, text),
    };

    /// <summary>The text of a value of this message type.</summary>
    public static string Format(MessageDescriptor descriptor, object value)
    {
        switch (KindOf(descriptor))
        {
            case Kind.Timestamp:
                return TimestampText.Format((Timestamp)value);
            case Kind.Duration:
                return DurationText.Format((Duration)value);
            case Kind.Wrapper:
                return FieldText.Format(WrappedField(descriptor), value);
            case Kind.FieldMask:
                // A FieldMask's JSON form is a string of path characters, which never need escaping.
                return JsonFormatter.Default.Format((IMessage)value).Trim('"');
            case Kind.Json:
            case Kind.Empty:
                return JsonFormatter.Default.Format((IMessage)value);
            default:
                throw new ArgumentException($"{descriptor.FullName} has no text form.", nameof(descriptor));
        }
    }

    // Every wrapper holds its value in field 1, named "value".
    private static FieldDescriptor WrappedField(MessageDescriptor wrapper) => wrapper.FindFieldByNumber(1);

    private static IMessage ParseJson(MessageDescriptor descriptor, string json)
    {
        try
        {
            return JsonParser.Default.Parse(json, descriptor);
        }
        catch (Exception ex) when (ex is InvalidJsonException or InvalidProtocolBufferException or FormatException or OverflowException or ArgumentException)
        {
            throw new ValueFormatException($"'{FieldText.Shorten(json)}' is not a valid {descriptor.Name}: {ex.Message}", ex);
        }
    }

    private static Kind KindOf(MessageDescriptor descriptor)
    {
        if (descriptor.File.Package != "google.protobuf")
        {
            return Kind.None;
        }

        return descriptor.FullName switch
        {
            "google.protobuf.Timestamp" => Kind.Timestamp,
            "google.protobuf.Duration" => Kind.Duration,
            "google.protobuf.FieldMask" => Kind.FieldMask,
            "google.protobuf.Struct" or "google.protobuf.Value" or "google.protobuf.ListValue" => Kind.Json,
            "google.protobuf.Empty" => Kind.Empty,
            _ when descriptor.File == WrappersReflection.Descriptor => Kind.Wrapper,
            // Any needs a type registry to have a JSON form; without one it is left as nested elements.
            _ => Kind.None,
        };
    }

    private enum Kind
    {
        None,
        Timestamp,
        Duration,
        Wrapper,
        FieldMask,
        Json,
        Empty,
    }
}
