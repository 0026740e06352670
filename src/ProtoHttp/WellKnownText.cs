using System.Buffers;
using System.Text;
using System.Text.Json;
using Google.Protobuf;
using Google.Protobuf.Reflection;
using Google.Protobuf.WellKnownTypes;
using ProtoHttp.Json;

namespace ProtoHttp;

/// <summary>
/// Well-known types that travel as one text value in XML and forms: the text of their JSON form
/// (docs/protocol.md section 4). Timestamp and Duration are formatted here rather than through
/// <see cref="JsonFormatter"/> because they are common on the hot path (three per Northwind order).
/// </summary>
internal static class WellKnownText
{
    /// <summary>Whether values of this message type are written as text rather than as nested elements.</summary>
    public static bool IsText(MessageDescriptor descriptor) => WellKnownTextKinds.IsText(descriptor);

    /// <exception cref="ValueFormatException">The text is not a value of that type.</exception>
    public static object Parse(MessageDescriptor descriptor, string text) => WellKnownTextKinds.Of(descriptor) switch
    {
        WellKnownTextKind.Timestamp => TimestampText.Parse(text),
        WellKnownTextKind.Duration => DurationText.Parse(text),
        // C# exposes a wrapper field as its nullable scalar, so reflection wants the bare value.
        WellKnownTextKind.Wrapper => FieldText.Parse(WrappedField(descriptor), text),
        WellKnownTextKind.FieldMask => JsonFieldMaskReader.Parse(text),
        WellKnownTextKind.Empty when string.IsNullOrWhiteSpace(text) => new Empty(),
        _ => ParseJson(descriptor, text),
    };

    /// <summary>The text of a value of this message type.</summary>
    public static string Format(MessageDescriptor descriptor, object value)
    {
        switch (WellKnownTextKinds.Of(descriptor))
        {
            case WellKnownTextKind.Timestamp:
                return TimestampText.Format((Timestamp)value);
            case WellKnownTextKind.Duration:
                return DurationText.Format((Duration)value);
            case WellKnownTextKind.Wrapper:
                return FieldText.Format(WrappedField(descriptor), value);
            case WellKnownTextKind.FieldMask:
                // A FieldMask's JSON form is a string of path characters, which never need escaping.
                return JsonFormatter.Default.Format((IMessage)value).Trim('"');
            case WellKnownTextKind.Json:
            case WellKnownTextKind.Empty:
                return JsonFormatter.Default.Format((IMessage)value);
            default:
                throw new ArgumentException($"{descriptor.FullName} has no text form.", nameof(descriptor));
        }
    }

    // Every wrapper holds its value in field 1, named "value".
    private static FieldDescriptor WrappedField(MessageDescriptor wrapper) => wrapper.FindFieldByNumber(1);

    // JSON's reader with JsonParser.Default's settings: unknown names refused, messages nested at most 100 deep.
    private static readonly JsonMessageReader JsonReader = new(ignoreUnknownFields: false, maxDepth: 100, ExtensionCatalog.Empty, FormatOptions.Default);

    private static IMessage ParseJson(MessageDescriptor descriptor, string json)
    {
        try
        {
            return JsonReader.Read(new ReadOnlySequence<byte>(Encoding.UTF8.GetBytes(json)), descriptor);
        }
        catch (Exception ex) when (ex is InvalidMessageException or JsonException or ValueFormatException or InvalidProtocolBufferException or FormatException
            or OverflowException or ArgumentException or InvalidOperationException)
        {
            throw new ValueFormatException($"'{FieldText.Shorten(json)}' is not a valid {descriptor.Name}: {ex.Message}", ex);
        }
    }
}
