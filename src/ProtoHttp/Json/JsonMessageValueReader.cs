using System.Text.Json;
using Google.Protobuf;
using Google.Protobuf.Reflection;

namespace ProtoHttp.Json;

/// <summary>A nested message: an object read through its type's plan.</summary>
internal sealed class JsonMessageValueReader(JsonMessageReader owner, MessageDescriptor descriptor) : JsonValueReader<IMessage>
{
    // Resolved on first use: a message type may contain itself.
    private JsonReadPlan? _plan;

    public override bool TryRead(ref JsonInput input, int depth, out IMessage value)
    {
        var plan = _plan ??= owner.PlanFor(descriptor);
        owner.CheckDepth(depth + 1);
        if (input.Reader.TokenType != JsonTokenType.StartObject)
        {
            throw JsonTokens.Unexpected(ref input.Reader, $"an object for {descriptor.Name}");
        }

        value = MessageFactory.Create(descriptor);
        plan.Read(ref input, value, depth + 1);
        return true;
    }
}
