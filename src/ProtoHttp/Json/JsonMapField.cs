using Google.Protobuf;
using Google.Protobuf.Collections;

namespace ProtoHttp.Json;

/// <summary>A map field: <c>{ "key": value }</c> in the map's insertion order (as JsonFormatter enumerates it), left out when empty.</summary>
internal sealed class JsonMapField<TMessage, TKey, TValue>(
    byte[] name, Func<TMessage, MapField<TKey, TValue>> getter, JsonValueWriter<TKey> keys, JsonValueWriter<TValue> values) : JsonFieldWriter(name)
    where TMessage : class, IMessage
    where TKey : notnull
{
    public override void Write(ref Utf8Output output, IMessage message, ref bool first)
    {
        var map = getter((TMessage)message);
        if (map.Count == 0)
        {
            return;
        }

        WriteName(ref output, ref first);
        output.Write("{ "u8);
        var firstEntry = true;
        foreach (var entry in map)
        {
            if (!firstEntry)
            {
                output.Write(", "u8);
            }

            keys.Write(ref output, entry.Key);
            output.Write(": "u8);
            values.Write(ref output, entry.Value);
            firstEntry = false;
        }

        output.Write(" }"u8);
    }
}
