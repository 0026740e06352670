using System.Text.Json;
using Google.Protobuf;
using Google.Protobuf.Reflection;

namespace ProtoHttp.Json;

/// <summary>
/// A singular proto2 extension, keyed <c>[full.name]</c> as the protobuf JSON mapping says (JsonParser reads no
/// extensions), set through the extension's reflection accessor; null clears it.
/// </summary>
internal sealed class JsonExtensionFieldReader<T>(FieldDescriptor field, JsonValueReader<T> value)
    : JsonFieldReader(field, $"[{field.FullName}]")
{
    public override void Read(ref JsonInput input, IMessage message, int depth)
    {
        if (input.Reader.TokenType == JsonTokenType.Null && !value.AcceptsNull)
        {
            Field.Accessor.Clear(message);
        }
        else if (value.TryRead(ref input, depth, out var read))
        {
            Field.Accessor.SetValue(message, read!);
        }
    }
}
