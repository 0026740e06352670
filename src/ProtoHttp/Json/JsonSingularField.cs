using Google.Protobuf;
using Google.Protobuf.Reflection;

namespace ProtoHttp.Json;

/// <summary>A singular field read through a typed getter, so scalars are never boxed.</summary>
internal sealed class JsonSingularField<TMessage, T>(
    byte[] name, Func<TMessage, T> getter, FieldPresence presence, FieldDescriptor field, JsonValueWriter<T> writer) : JsonFieldWriter(name)
    where TMessage : class, IMessage
{
    public override void Write(ref Utf8Output output, IMessage message, ref bool first)
    {
        var typed = (TMessage)message;
        if (presence == FieldPresence.HasValue && !field.Accessor.HasValue(message))
        {
            return;
        }

        var value = getter(typed);
        if (presence == FieldPresence.NotNull ? value is null : presence == FieldPresence.NotDefault && writer.IsDefault(value))
        {
            return;
        }

        WriteName(ref output, ref first);
        writer.Write(ref output, value);
    }
}
