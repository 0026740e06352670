using System.Buffers;
using System.Collections;
using System.Text;
using System.Xml;
using Google.Protobuf;
using Google.Protobuf.Reflection;

namespace ProtoHttp.Xml;

/// <summary>
/// Writes one message as ProtoHttp XML (PROTOCOL.md section 4), streaming UTF-8 into the output.
/// A string XML 1.0 cannot carry (U+0000 and the other C0 controls but tab, CR and LF; U+FFFE, U+FFFF; a lone
/// surrogate) is refused with an <see cref="UnwritableMessageException"/> naming the field (the server answers 406),
/// rather than written as broken XML or silently altered: the caller can ask for JSON or protobuf, which carry it.
/// </summary>
internal sealed class XmlMessageWriter
{
    private static readonly UTF8Encoding Utf8 = new(encoderShouldEmitUTF8Identifier: false);

    private readonly XmlWriter _xml;
    private readonly char[] _scratch = new char[32];

    private XmlMessageWriter(XmlWriter xml) => _xml = xml;

    public static void Write(IMessage message, IBufferWriter<byte> output)
    {
        using var stream = new BufferWriterStream(output);
        using var xml = XmlDictionaryWriter.CreateTextWriter(stream, Utf8, ownsStream: false);
        var writer = new XmlMessageWriter(xml);
        xml.WriteStartElement("root");
        writer.WriteFields(message);
        xml.WriteFullEndElement();
    }

    private void WriteFields(IMessage message)
    {
        foreach (var field in message.Descriptor.Fields.InFieldNumberOrder())
        {
            var value = field.Accessor.GetValue(message);
            if (field.IsMap)
            {
                var (keyField, valueField) = FieldValues.EntryFields(field);
                foreach (DictionaryEntry entry in (IDictionary)value)
                {
                    _xml.WriteStartElement(field.Name);
                    WriteValue(keyField, entry.Key);
                    WriteValue(valueField, entry.Value!);
                    _xml.WriteFullEndElement();
                }
            }
            else if (field.IsRepeated)
            {
                foreach (var item in (IList)value)
                {
                    WriteValue(field, item);
                }
            }
            else if (field.HasPresence ? field.Accessor.HasValue(message) : !IsDefault(field.FieldType, value))
            {
                WriteValue(field, value);
            }
        }
    }

    private void WriteValue(FieldDescriptor field, object value)
    {
        _xml.WriteStartElement(field.Name);
        if (field.FieldType is FieldType.Message or FieldType.Group && !WellKnownText.IsText(field.MessageType))
        {
            WriteFields((IMessage)value);
        }
        else if (FieldText.TryFormatScalar(field.FieldType, value, _scratch, out var length))
        {
            // Digits, signs, letters and dots only: nothing to escape.
            _xml.WriteRaw(_scratch, 0, length);
        }
        else
        {
            WriteText(field, FieldText.Format(field, value));
        }

        _xml.WriteFullEndElement();
    }

    private void WriteText(FieldDescriptor field, string text)
    {
        // Checked here rather than left to CheckCharacters, which lets a lone surrogate through as an invalid
        // character reference. The vectorized scan finds nothing in ordinary text.
        if (XmlText.FirstUnwritable(text) is var bad and >= 0)
        {
            throw new UnwritableMessageException(
                $"Field '{field.FullName}' holds U+{bad:X4}, a character XML 1.0 cannot carry; ask for JSON or protobuf instead.");
        }

        _xml.WriteString(text);
    }

    // Implicit-presence (proto3) fields are unset when they hold their default, exactly as the binary encoding decides.
    private static bool IsDefault(FieldType type, object value) => type switch
    {
        FieldType.String => ((string)value).Length == 0,
        FieldType.Bytes => ((ByteString)value).IsEmpty,
        FieldType.Bool => !(bool)value,
        FieldType.Enum => (int)value == 0,
        FieldType.Double => (double)value == 0,
        FieldType.Float => (float)value == 0,
        FieldType.Int32 or FieldType.SInt32 or FieldType.SFixed32 => (int)value == 0,
        FieldType.Int64 or FieldType.SInt64 or FieldType.SFixed64 => (long)value == 0,
        FieldType.UInt32 or FieldType.Fixed32 => (uint)value == 0,
        FieldType.UInt64 or FieldType.Fixed64 => (ulong)value == 0,
        _ => value is null,
    };
}
