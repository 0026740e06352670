using Google.Protobuf.Reflection;

namespace ProtoHttp.Json;

/// <summary>
/// An enum by its .proto name, or as a bare number when the value has no name. For aliases JsonFormatter takes the
/// preferred one, which Grpc.Tools marks on the first declared value of a number: the one the descriptor lists first.
/// </summary>
internal sealed class JsonEnumWriter : JsonValueWriter<int>
{
    private readonly Dictionary<int, byte[]> _names = [];

    public JsonEnumWriter(EnumDescriptor descriptor)
    {
        foreach (var value in descriptor.Values)
        {
            _names.TryAdd(value.Number, JsonStringText.Encode(value.Name));
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
            JsonNumberText.Write(ref output, value, quoted: false);
        }
    }

    public override bool IsDefault(int value) => value == 0;
}
