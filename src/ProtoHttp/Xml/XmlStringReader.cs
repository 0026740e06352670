using Google.Protobuf.Reflection;

namespace ProtoHttp.Xml;

/// <summary>string: the element's text as it is, whitespace included.</summary>
internal sealed class XmlStringReader : XmlValueReader<string>
{
    public static XmlStringReader Instance { get; } = new();

    public override string Read(XmlMessageReader reader, FieldDescriptor field, string where) => reader.ReadText(where);
}
