using System.Collections;
using Google.Protobuf;
using Google.Protobuf.Collections;
using Google.Protobuf.Reflection;

namespace ProtoHttp.Json;

/// <summary>A repeated field: <c>[ a, b ]</c>, left out when empty.</summary>
internal sealed class JsonRepeatedField<T>(byte[] name, FieldDescriptor field, JsonValueWriter<T> writer) : JsonFieldWriter(name)
{
    private readonly IFieldAccessor _accessor = field.Accessor;

    public override void Write(ref Utf8Output output, IMessage message, ref bool first)
    {
        var value = _accessor.GetValue(message);
        if (value is RepeatedField<T> exact)
        {
            // Numbers, bools, strings and bytes: the list is of the writer's own T, read with no interface call or box.
            if (exact.Count == 0)
            {
                return;
            }

            Open(ref output, ref first);
            for (var i = 0; i < exact.Count; i++)
            {
                WriteItem(ref output, i, exact[i]);
            }
        }
        else
        {
            // Messages (a RepeatedField of the message's own class, read as IMessage) and enums (of their own enum
            // type, read boxed as the underlying int).
            var list = (IList)value;
            var count = list.Count;
            if (count == 0)
            {
                return;
            }

            Open(ref output, ref first);
            for (var i = 0; i < count; i++)
            {
                WriteItem(ref output, i, (T)list[i]!);
            }
        }

        output.Write(" ]"u8);
    }

    private void Open(ref Utf8Output output, ref bool first)
    {
        WriteName(ref output, ref first);
        output.Write("[ "u8);
    }

    private void WriteItem(ref Utf8Output output, int index, T item)
    {
        if (index > 0)
        {
            output.Write(", "u8);
        }

        writer.Write(ref output, item);
    }
}
