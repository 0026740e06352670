using System.Collections;
using Google.Protobuf;
using Google.Protobuf.Reflection;

namespace ProtoHttp.Json;

/// <summary>
/// A field the native writer does not model (wrapper types, which C# exposes as nullable scalars, and collections
/// of them): presence decided as JsonFormatter does, the value written by JsonFormatter itself.
/// </summary>
internal sealed class JsonDelegatedField(byte[] name, FieldDescriptor field, JsonMessageWriter owner) : JsonFieldWriter(name)
{
    public override void Write(ref Utf8Output output, IMessage message, ref bool first)
    {
        var value = field.Accessor.GetValue(message);
        var skip = field.IsRepeated ? ((ICollection)value).Count == 0 : !field.Accessor.HasValue(message);
        if (skip)
        {
            return;
        }

        WriteName(ref output, ref first);
        owner.WriteDelegated(ref output, value);
    }
}
