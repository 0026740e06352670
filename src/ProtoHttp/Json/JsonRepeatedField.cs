using System.Collections;
using Google.Protobuf;
using Google.Protobuf.Reflection;

namespace ProtoHttp.Json;

/// <summary>A repeated field: <c>[ a, b ]</c>, left out when empty.</summary>
internal sealed class JsonRepeatedField<T>(byte[] name, FieldDescriptor field, JsonValueWriter<T> writer) : JsonFieldWriter(name)
{
    private readonly IFieldAccessor _accessor = field.Accessor;

    public override void Write(ref Utf8Output output, IMessage message, ref bool first)
    {
        // A RepeatedField<T> of the writer's T, items unboxed; a list of messages is also a list of IMessage. An enum
        // list is of its own enum type, so its items are read boxed.
        var value = _accessor.GetValue(message);
        var typed = value as IReadOnlyList<T>;
        var list = (IList)value;
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

            if (typed is not null)
            {
                writer.Write(ref output, typed[i]);
            }
            else
            {
                writer.WriteBoxed(ref output, list[i]!);
            }
        }

        output.Write(" ]"u8);
    }
}
