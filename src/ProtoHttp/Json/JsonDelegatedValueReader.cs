using Google.Protobuf;
using Google.Protobuf.Reflection;
using Google.Protobuf.WellKnownTypes;

namespace ProtoHttp.Json;

/// <summary>
/// A well-known type with a JSON form of its own (Duration, FieldMask, Struct, Value, ListValue, Any, Empty): its
/// raw text is parsed by JsonParser, so those rules are never guessed.
/// </summary>
internal sealed class JsonDelegatedValueReader(JsonMessageReader owner, MessageDescriptor descriptor) : JsonValueReader<IMessage>
{
    public override bool AcceptsNull { get; } = descriptor.FullName == Value.Descriptor.FullName;

    public override bool TryRead(ref JsonInput input, int depth, out IMessage value)
    {
        owner.CheckDepth(depth + 1);
        value = owner.ParseDelegated(ref input, descriptor, depth + 1);
        return true;
    }
}
