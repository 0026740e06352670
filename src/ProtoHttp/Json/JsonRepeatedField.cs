using Google.Protobuf;
using Google.Protobuf.Collections;

namespace ProtoHttp.Json;

/// <summary>A repeated field: <c>[ a, b ]</c>, left out when empty.</summary>
internal sealed class JsonRepeatedField<TMessage, T>(byte[] name, Func<TMessage, RepeatedField<T>> getter, JsonValueWriter<T> writer) : JsonFieldWriter(name)
    where TMessage : class, IMessage
{
    public override void Write(ref Utf8Output output, IMessage message, ref bool first)
    {
        var list = getter((TMessage)message);
        if (list.Count == 0)
        {
            return;
        }

        WriteName(ref output, ref first);
        output.Write("[ "u8);
        for (var i = 0; i < list.Count; i++)
        {
            if (i > 0)
            {
                output.Write(", "u8);
            }

            writer.Write(ref output, list[i]);
        }

        output.Write(" ]"u8);
    }
}
