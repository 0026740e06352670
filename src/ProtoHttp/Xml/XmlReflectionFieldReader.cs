using Google.Protobuf;
using Google.Protobuf.Reflection;

namespace ProtoHttp.Xml;

/// <summary>
/// A field without a typed reader (enums, wrapper types, which C# exposes as nullable scalars, and well-known types
/// other than Timestamp), read as <see cref="FieldText"/> parses it and stored through protobuf reflection.
/// </summary>
internal sealed class XmlReflectionFieldReader(FieldDescriptor field) : XmlFieldReader(field)
{
    public override void Read(XmlMessageReader reader, IMessage message, string name, int depth)
    {
        if (IsNested(Field))
        {
            var child = Field.IsRepeated ? MessageFactory.Create(Field.MessageType) : FieldValues.Child(message, Field);
            reader.ReadFields(child, name, depth + 1);
            if (Field.IsRepeated)
            {
                FieldValues.Add(message, Field, child);
            }

            return;
        }

        var value = reader.ReadValue(Field, name);
        if (Field.IsRepeated)
        {
            FieldValues.Add(message, Field, value);
        }
        else
        {
            FieldValues.Set(message, Field, value);
        }
    }
}
