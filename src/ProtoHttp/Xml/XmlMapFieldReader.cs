using System.Xml;
using Google.Protobuf;
using Google.Protobuf.Reflection;

namespace ProtoHttp.Xml;

/// <summary>
/// One map entry, <c>&lt;labels&gt;&lt;key&gt;k&lt;/key&gt;&lt;value&gt;v&lt;/value&gt;&lt;/labels&gt;</c>, stored through
/// protobuf reflection; either child may be missing and then takes its default.
/// </summary>
internal sealed class XmlMapFieldReader(FieldDescriptor map) : XmlFieldReader(map)
{
    private readonly FieldDescriptor _keyField = map.MessageType.FindFieldByNumber(1);
    private readonly FieldDescriptor _valueField = map.MessageType.FindFieldByNumber(2);

    public override void Read(XmlMessageReader reader, IMessage message, string name, int depth)
    {
        var xml = reader.Xml;
        object? key = null;
        object? value = null;
        if (xml.IsEmptyElement)
        {
            xml.Read();
        }
        else
        {
            xml.Read();
            while (xml.MoveToContent() == XmlNodeType.Element)
            {
                var partName = xml.LocalName;
                var part = FieldLookup.Find(Field.MessageType, partName);
                if (part == _keyField && key is null)
                {
                    key = reader.ReadValue(_keyField, $"{Field.Name}><key");
                }
                else if (part == _valueField && value is null)
                {
                    value = IsNested(_valueField) ? ReadNested(reader, partName, depth) : reader.ReadValue(_valueField, $"{Field.Name}><value");
                }
                else
                {
                    throw new InvalidMessageException($"<{Field.Name}> is a map entry; it holds one <key> and one <value>, not <{partName}>.");
                }
            }

            if (xml.NodeType is XmlNodeType.Text or XmlNodeType.CDATA)
            {
                throw new InvalidMessageException($"<{Field.Name}> is a map entry; it holds <key> and <value> elements, not text.");
            }

            xml.ReadEndElement();
        }

        FieldValues.Put(message, Field, key ?? FieldValues.DefaultValue(_keyField), value ?? FieldValues.DefaultValue(_valueField));
    }

    private IMessage ReadNested(XmlMessageReader reader, string element, int depth)
    {
        var child = MessageFactory.Create(_valueField.MessageType);
        reader.ReadFields(child, element, depth + 1);
        return child;
    }
}
