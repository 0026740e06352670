using System.Collections;
using Google.Protobuf;
using Google.Protobuf.Reflection;

namespace ProtoHttp.Xml;

/// <summary>
/// A field the typed writers do not model (wrapper types, which C# exposes as nullable scalars, and collections of
/// them): read through protobuf reflection and written as the text <see cref="FieldText"/> gives its values.
/// </summary>
internal sealed class XmlDelegatedField(FieldDescriptor field) : XmlFieldWriter(field.Name)
{
    public override void Write(ref Utf8Output output, IMessage message)
    {
        var value = field.Accessor.GetValue(message);
        if (field.IsMap)
        {
            var (keyField, valueField) = FieldValues.EntryFields(field);
            foreach (DictionaryEntry entry in (IDictionary)value)
            {
                WriteStart(ref output);
                output.Write("<key>"u8);
                WriteValue(ref output, keyField, entry.Key);
                output.Write("</key><value>"u8);
                WriteValue(ref output, valueField, entry.Value!);
                output.Write("</value>"u8);
                WriteEnd(ref output);
            }
        }
        else if (field.IsRepeated)
        {
            foreach (var item in (IList)value)
            {
                WriteStart(ref output);
                WriteValue(ref output, field, item);
                WriteEnd(ref output);
            }
        }
        else if (field.Accessor.HasValue(message))
        {
            WriteStart(ref output);
            WriteValue(ref output, field, value);
            WriteEnd(ref output);
        }
    }

    private static void WriteValue(ref Utf8Output output, FieldDescriptor field, object value)
    {
        if (field.FieldType is FieldType.Message or FieldType.Group && !WellKnownText.IsText(field.MessageType))
        {
            XmlMessageWriter.PlanFor(field.MessageType).WriteFields(ref output, (IMessage)value);
        }
        else
        {
            XmlStringText.Write(ref output, FieldText.Format(field, value), field);
        }
    }
}
