using Google.Protobuf.Reflection;

namespace ProtoHttp.Xml;

/// <summary>A number or bool, parsed from the reader's characters without a string (<see cref="FieldText.TryParseScalar{T}"/>).</summary>
internal sealed class XmlScalarReader<T> : XmlValueReader<T>
    where T : struct
{
    public static XmlScalarReader<T> Instance { get; } = new();

    public override T Read(XmlMessageReader reader, FieldDescriptor field, string where)
    {
        var text = reader.ReadChars(where);
        if (FieldText.TryParseScalar<T>(text, out var value))
        {
            return value;
        }

        try
        {
            // Throws the exception that names the value and the type, as for every other reader of this text form.
            FieldText.ParseScalar(field.FieldType, text.ToString());
            throw new InvalidOperationException("ParseScalar accepted what TryParseScalar refused.");
        }
        catch (ValueFormatException ex)
        {
            throw XmlMessageReader.Invalid(where, ex);
        }
    }
}
