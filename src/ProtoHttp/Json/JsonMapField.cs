using System.Collections;
using Google.Protobuf;
using Google.Protobuf.Reflection;

namespace ProtoHttp.Json;

/// <summary>A map field: <c>{ "key": value }</c> in the map's insertion order (as JsonFormatter enumerates it), left out when empty.</summary>
internal sealed class JsonMapField(byte[] name, FieldDescriptor field, JsonValueWriter keys, JsonValueWriter values) : JsonFieldWriter(name)
{
    private readonly IFieldAccessor _accessor = field.Accessor;

    public override void Write(ref Utf8Output output, IMessage message, ref bool first)
    {
        // Through the non-generic dictionary: a plan closes no generic type over the map's key and value types.
        var map = (IDictionary)_accessor.GetValue(message);
        if (map.Count == 0)
        {
            return;
        }

        WriteName(ref output, ref first);
        output.Write("{ "u8);
        var firstEntry = true;
        foreach (DictionaryEntry entry in map)
        {
            if (!firstEntry)
            {
                output.Write(", "u8);
            }

            keys.WriteBoxed(ref output, entry.Key);
            output.Write(": "u8);
            values.WriteBoxed(ref output, entry.Value!);
            firstEntry = false;
        }

        output.Write(" }"u8);
    }
}
