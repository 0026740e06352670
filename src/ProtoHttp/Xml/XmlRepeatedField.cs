using System.Collections;
using Google.Protobuf;
using Google.Protobuf.Reflection;

namespace ProtoHttp.Xml;

/// <summary>A repeated field: one element per item, siblings with the same name.</summary>
internal sealed class XmlRepeatedField<T>(FieldDescriptor field, XmlValueWriter<T> writer) : XmlFieldWriter(field.Name)
{
    private readonly IFieldAccessor _accessor = field.Accessor;

    public override void Write(ref Utf8Output output, IMessage message)
    {
        // A RepeatedField<T> of the writer's T, items unboxed; a list of messages is also a list of IMessage. An enum
        // list is of its own enum type, so its items are read boxed.
        var value = _accessor.GetValue(message);
        if (value is IReadOnlyList<T> typed)
        {
            for (var i = 0; i < typed.Count; i++)
            {
                WriteElement(ref output, writer, typed[i]);
            }

            return;
        }

        foreach (var item in (IList)value)
        {
            WriteStart(ref output);
            writer.WriteBoxed(ref output, item!);
            WriteEnd(ref output);
        }
    }
}
