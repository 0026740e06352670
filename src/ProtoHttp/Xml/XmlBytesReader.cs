using Google.Protobuf;
using Google.Protobuf.Reflection;

namespace ProtoHttp.Xml;

/// <summary>bytes: base64, standard or URL-safe, padding optional (<see cref="FieldText.ParseBytes"/>).</summary>
internal sealed class XmlBytesReader : XmlValueReader<ByteString>
{
    public static XmlBytesReader Instance { get; } = new();

    public override ByteString Read(XmlMessageReader reader, FieldDescriptor field, string where)
    {
        try
        {
            return FieldText.ParseBytes(reader.ReadChars(where));
        }
        catch (ValueFormatException ex)
        {
            throw XmlMessageReader.Invalid(where, ex);
        }
    }
}
