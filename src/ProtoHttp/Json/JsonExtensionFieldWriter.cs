using Google.Protobuf;
using Google.Protobuf.Reflection;

namespace ProtoHttp.Json;

/// <summary>A set singular proto2 extension, written under its <c>[full.name]</c> key by JsonFormatter's value rules.</summary>
internal sealed class JsonExtensionFieldWriter(FieldDescriptor field, JsonMessageWriter owner)
    : JsonFieldWriter(JsonStringText.Encode($"[{field.FullName}]"))
{
    public override void Write(ref Utf8Output output, IMessage message, ref bool first)
    {
        if (!field.Accessor.HasValue(message))
        {
            return;
        }

        WriteName(ref output, ref first);
        owner.WriteDelegated(ref output, field.Accessor.GetValue(message));
    }
}
