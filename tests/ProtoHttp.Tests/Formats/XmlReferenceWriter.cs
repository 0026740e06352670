using System.Collections;
using System.Text;
using System.Xml;
using Google.Protobuf;
using Google.Protobuf.Reflection;

namespace ProtoHttp.Tests.Formats;

/// <summary>
/// The oracle for the XML writer: docs/protocol.md's XML mapping (section 4) written the plain way, field by field through protobuf
/// reflection into <see cref="XmlDictionaryWriter"/> (the writer the codec used before it wrote bytes itself), so the
/// native writer's escaping, number text and presence rules are checked against an independent implementation.
/// </summary>
internal static class XmlReferenceWriter
{
    public static byte[] Write(IMessage message)
    {
        using var stream = new MemoryStream();
        using (var xml = XmlDictionaryWriter.CreateTextWriter(stream, new UTF8Encoding(encoderShouldEmitUTF8Identifier: false), ownsStream: false))
        {
            xml.WriteStartElement("root");
            WriteFields(xml, message);
            xml.WriteFullEndElement();
        }

        return stream.ToArray();
    }

    private static void WriteFields(XmlWriter xml, IMessage message)
    {
        foreach (var field in message.Descriptor.Fields.InFieldNumberOrder())
        {
            var value = field.Accessor.GetValue(message);
            if (field.IsMap)
            {
                var (keyField, valueField) = FieldValues.EntryFields(field);
                foreach (DictionaryEntry entry in (IDictionary)value)
                {
                    xml.WriteStartElement(field.Name);
                    WriteValue(xml, keyField, entry.Key);
                    WriteValue(xml, valueField, entry.Value!);
                    xml.WriteFullEndElement();
                }
            }
            else if (field.IsRepeated)
            {
                foreach (var item in (IList)value)
                {
                    WriteValue(xml, field, item);
                }
            }
            else if (field.HasPresence ? field.Accessor.HasValue(message) : !IsDefault(value))
            {
                WriteValue(xml, field, value);
            }
        }
    }

    private static void WriteValue(XmlWriter xml, FieldDescriptor field, object value)
    {
        xml.WriteStartElement(field.Name);
        if (field.FieldType is FieldType.Message or FieldType.Group && !WellKnownText.IsText(field.MessageType))
        {
            WriteFields(xml, (IMessage)value);
        }
        else
        {
            var text = FieldText.Format(field, value);
            if (!ProtoHttp.Xml.XmlText.CanCarry(text))
            {
                throw new UnwritableMessageException($"Field '{field.FullName}' cannot be written as XML.");
            }

            xml.WriteString(text);
        }

        xml.WriteFullEndElement();
    }

    private static bool IsDefault(object value) => value switch
    {
        string text => text.Length == 0,
        ByteString bytes => bytes.IsEmpty,
        bool flag => !flag,
        double number => number == 0,
        float number => number == 0,
        Enum number => Convert.ToInt64(number, System.Globalization.CultureInfo.InvariantCulture) == 0,
        IConvertible number => Convert.ToDecimal(number, System.Globalization.CultureInfo.InvariantCulture) == 0,
        _ => false,
    };
}
