using System.Runtime.CompilerServices;
using System.Text;
using Google.Protobuf.Reflection;

namespace ProtoHttp.Xml;

/// <summary>An enum by its .proto name (the first declared, for aliases), or as a number when the value has no name.</summary>
internal sealed class XmlEnumWriter<TEnum> : XmlValueWriter<TEnum>
    where TEnum : struct, Enum
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

    public override void Write(ref Utf8Output output, TEnum value)
    {
        var number = Unsafe.As<TEnum, int>(ref value);
        if (_names.TryGetValue(number, out var name))
        {
            output.Write(name);
        }
        else
        {
            XmlIntegerWriter<int>.Instance.Write(ref output, number);
        }
    }

    public override bool IsDefault(TEnum value) => Unsafe.As<TEnum, int>(ref value) == 0;
}
