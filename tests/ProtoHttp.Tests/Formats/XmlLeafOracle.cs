using System.Collections;
using System.Globalization;
using System.Text.Json;
using System.Xml;
using System.Xml.Linq;
using Google.Protobuf;
using Google.Protobuf.Reflection;
using Google.Protobuf.WellKnownTypes;

namespace ProtoHttp.Tests.Formats;

/// <summary>
/// An oracle for XML that ProtoHttp wrote, calling none of ProtoHttp's text code (unlike <see cref="XmlReferenceWriter"/>,
/// which formats values with the production <c>FieldText</c> and so checks scalars against themselves): the BCL's
/// <see cref="XmlReader"/> reads the document, its elements are matched to the fields Google.Protobuf holds by proto
/// name in field-number order, and each leaf's text is compared with the value formatted by the BCL's rules as
/// docs/protocol.md section 4 states them (<see cref="XmlConvert"/> numbers, base64 bytes, enum names, well-known types as
/// Google.Protobuf's JSON form of them).
/// </summary>
internal static class XmlLeafOracle
{
    /// <summary>
    /// Asserts that <paramref name="xml"/> is <paramref name="message"/> in docs/protocol.md's XML mapping (at the root
    /// every message is its fields, a well-known type too; only as a field is one of them a text).
    /// </summary>
    public static void AssertWritten(IMessage message, byte[] xml)
    {
        var settings = new XmlReaderSettings { DtdProcessing = DtdProcessing.Prohibit, CheckCharacters = true };
        using var reader = XmlReader.Create(new MemoryStream(xml), settings);
        reader.MoveToContent();
        Assert.Equal(XmlNodeType.Element, reader.NodeType); // No declaration, nothing before the root.
        var root = XElement.Load(reader);
        Assert.Equal("root", root.Name.LocalName);
        AssertFields(root, message, "root");
    }

    private static void AssertFields(XElement element, IMessage message, string path)
    {
        Assert.True(element.Nodes().All(node => node is XElement), $"{path} holds text beside its fields");
        var expected = new List<(string Name, Action<XElement> Check)>();
        foreach (var field in message.Descriptor.Fields.InFieldNumberOrder())
        {
            var value = field.Accessor.GetValue(message);
            var at = $"{path}.{field.Name}";
            if (field.IsMap)
            {
                var keyField = field.MessageType.FindFieldByNumber(1);
                var valueField = field.MessageType.FindFieldByNumber(2);
                foreach (DictionaryEntry entry in (IDictionary)value)
                {
                    expected.Add((field.Name, e =>
                    {
                        Assert.Equal(["key", "value"], e.Elements().Select(c => c.Name.LocalName));
                        AssertValue(e.Element("key")!, keyField, entry.Key, at + ".key");
                        AssertValue(e.Element("value")!, valueField, entry.Value!, at + ".value");
                    }));
                }
            }
            else if (field.IsRepeated)
            {
                foreach (var item in (IList)value)
                {
                    expected.Add((field.Name, e => AssertValue(e, field, item, at)));
                }
            }
            else if (field.HasPresence ? field.Accessor.HasValue(message) : !IsDefault(value))
            {
                expected.Add((field.Name, e => AssertValue(e, field, value, at)));
            }
        }

        var children = element.Elements().ToList();
        Assert.Equal(expected.Select(e => e.Name), children.Select(c => c.Name.LocalName));
        for (var i = 0; i < children.Count; i++)
        {
            expected[i].Check(children[i]);
        }
    }

    private static void AssertValue(XElement element, FieldDescriptor field, object value, string path)
    {
        if (field.FieldType is FieldType.Message or FieldType.Group && !IsText(field.MessageType))
        {
            AssertFields(element, (IMessage)value, path);
            return;
        }

        Assert.False(element.HasElements, $"{path} is a leaf but has child elements");
        var text = field.FieldType is not FieldType.Message ? ScalarText(field, value)
            : field.MessageType.File == WrappersReflection.Descriptor ? ScalarText(field.MessageType.FindFieldByNumber(1), value) // C# holds a wrapper field as its bare scalar.
            : WellKnownText((IMessage)value);
        Assert.True(text == element.Value, $"{path}: expected '{text}', the XML holds '{element.Value}'");
    }

    private static string ScalarText(FieldDescriptor field, object value) => field.FieldType switch
    {
        FieldType.Bool => (bool)value ? "true" : "false",
        FieldType.Double => XmlConvert.ToString((double)value),
        FieldType.Float => XmlConvert.ToString((float)value),
        FieldType.String => (string)value,
        FieldType.Bytes => Convert.ToBase64String(((ByteString)value).ToByteArray()),
        FieldType.Enum => field.EnumType.FindValueByNumber(Convert.ToInt32(value, CultureInfo.InvariantCulture))?.Name
            ?? Convert.ToInt32(value, CultureInfo.InvariantCulture).ToString(CultureInfo.InvariantCulture),
        _ => Convert.ToString(value, CultureInfo.InvariantCulture)!, // Every integer type: plain decimal digits.
    };

    // The well-known types the mapping writes as one text: Timestamp, Duration and FieldMask as the content of their
    // JSON string, Struct, Value and ListValue as their JSON, Empty as its JSON too; a wrapper as its scalar.
    private static bool IsText(MessageDescriptor descriptor) =>
        descriptor.File.Package == "google.protobuf" && descriptor.FullName != Any.Descriptor.FullName
        && (descriptor.File == WrappersReflection.Descriptor || descriptor.FullName is "google.protobuf.Timestamp" or "google.protobuf.Duration"
            or "google.protobuf.FieldMask" or "google.protobuf.Struct" or "google.protobuf.Value" or "google.protobuf.ListValue" or "google.protobuf.Empty");

    private static string WellKnownText(IMessage message)
    {
        if (message.Descriptor.FullName is "google.protobuf.Struct" or "google.protobuf.Value" or "google.protobuf.ListValue")
        {
            return JsonFormatter.Default.Format(message); // JSON values: the JSON itself, a string value in its quotes.
        }

        using var json = JsonDocument.Parse(JsonFormatter.Default.Format(message));
        return json.RootElement.ValueKind == JsonValueKind.String ? json.RootElement.GetString()! : json.RootElement.GetRawText();
    }

    private static bool IsDefault(object value) => value switch
    {
        string text => text.Length == 0,
        ByteString bytes => bytes.IsEmpty,
        bool flag => !flag,
        double number => number == 0, // -0.0 too: as protobuf leaves it out of the wire, so does the mapping.
        float number => number == 0,
        System.Enum number => Convert.ToInt64(number, CultureInfo.InvariantCulture) == 0,
        IConvertible number => Convert.ToDecimal(number, CultureInfo.InvariantCulture) == 0,
        _ => false,
    };
}
