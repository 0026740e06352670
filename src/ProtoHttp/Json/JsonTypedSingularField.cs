using Google.Protobuf;
using Google.Protobuf.Reflection;

namespace ProtoHttp.Json;

/// <summary>A singular number, bool or enum field read through a typed getter (<see cref="TypedFieldAccess"/>): no box per value.</summary>
internal sealed class JsonTypedSingularField<T>(byte[] name, FieldDescriptor field, FieldPresence presence, JsonValueWriter<T> writer, Func<IMessage, T> getter)
    : JsonFieldWriter(name)
{
    private readonly IFieldAccessor _accessor = field.Accessor;

    public override void Write(ref Utf8Output output, IMessage message, ref bool first)
    {
        if (presence == FieldPresence.HasValue && !_accessor.HasValue(message))
        {
            return;
        }

        var value = getter(message);
        if (presence == FieldPresence.NotDefault && writer.IsDefault(value))
        {
            return;
        }

        WriteName(ref output, ref first);
        writer.Write(ref output, value);
    }
}
