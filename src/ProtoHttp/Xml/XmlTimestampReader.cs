using Google.Protobuf.Reflection;
using Google.Protobuf.WellKnownTypes;

namespace ProtoHttp.Xml;

/// <summary>Timestamp: RFC 3339 text, parsed from the reader's characters without a string (three per Northwind order).</summary>
internal sealed class XmlTimestampReader : XmlValueReader<Timestamp>
{
    public static XmlTimestampReader Instance { get; } = new();

    public override Timestamp Read(XmlMessageReader reader, FieldDescriptor field, string where)
    {
        try
        {
            return TimestampText.Parse(reader.ReadChars(where));
        }
        catch (ValueFormatException ex)
        {
            throw XmlMessageReader.Invalid(where, ex);
        }
    }
}
