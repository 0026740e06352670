using Google.Protobuf;
using Google.Protobuf.Reflection;

namespace ProtoHttp.Json;

/// <summary>
/// A wrapper (Int32Value, StringValue...) read as a message: its bare scalar, as the proto3 JSON mapping gives it.
/// Fields take wrappers as their nullable scalars instead; this is for a wrapper at the root or packed in an Any.
/// </summary>
internal sealed class JsonWrapperMessageReader(MessageDescriptor descriptor, JsonValueReader scalar) : JsonValueReader<IMessage>
{
    private readonly IFieldAccessor _value = descriptor.FindFieldByNumber(1).Accessor;

    public override bool TryRead(ref JsonInput input, int depth, out IMessage value)
    {
        // null leaves the wrapper empty, as JsonParser's null clears its field.
        value = MessageFactory.Create(descriptor);
        if (input.Reader.TokenType != System.Text.Json.JsonTokenType.Null && scalar.TryReadBoxed(ref input, depth, out var read))
        {
            _value.SetValue(value, read);
        }

        return true;
    }
}
