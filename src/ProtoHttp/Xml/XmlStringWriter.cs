using Google.Protobuf.Reflection;

namespace ProtoHttp.Xml;

/// <summary>string: escaped UTF-8 (see <see cref="XmlStringText"/>); the field is named if XML cannot carry the value.</summary>
internal sealed class XmlStringWriter(FieldDescriptor field) : XmlValueWriter<string>
{
    public override void Write(ref Utf8Output output, string value) => XmlStringText.Write(ref output, value, field);

    public override bool IsDefault(string value) => value.Length == 0;
}
