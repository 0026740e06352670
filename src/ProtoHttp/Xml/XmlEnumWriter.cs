using System.Text;
using Google.Protobuf.Reflection;

namespace ProtoHttp.Xml;

/// <summary>An enum by its .proto name (the first declared, for aliases), or as a number when the value has no name.</summary>
internal sealed class XmlEnumWriter : XmlValueWriter<int>
{
    private readonly Dictionary<int, byte[]> _names = [];

    public XmlEnumWriter(EnumDescriptor descriptor)
    {
        // Enum value names are ASCII identifiers: nothing to escape.
        foreach (var value in descriptor.Values)
        {
            _names.TryAdd(value.Number, Encoding.UTF8.GetBytes(value.Name));
        }
    }

    public override void Write(ref Utf8Output output, int value)
    {
        if (_names.TryGetValue(value, out var name))
        {
            output.Write(name);
        }
        else
        {
            XmlIntegerWriter<int>.Instance.Write(ref output, value);
        }
    }

    public override bool IsDefault(int value) => value == 0;
}
