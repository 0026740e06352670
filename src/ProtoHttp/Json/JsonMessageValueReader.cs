using System.Text.Json;
using Google.Protobuf;
using Google.Protobuf.Reflection;

namespace ProtoHttp.Json;

/// <summary>A nested message: an object read through its type's plan, or by JsonParser when the plan has no native reader.</summary>
internal sealed class JsonMessageValueReader<T>(JsonMessageReader owner, MessageDescriptor descriptor) : JsonValueReader<T>
    where T : class, IMessage, new()
{
    // Resolved on first use: a message type may contain itself.
    private JsonReadPlan? _plan;

    public override bool TryRead(ref JsonInput input, int depth, out T value)
    {
        var plan = _plan ??= owner.PlanFor(descriptor);
        owner.CheckDepth(depth + 1);
        if (!plan.IsNative)
        {
            value = (T)owner.ParseDelegated(ref input, descriptor, depth + 1);
            return true;
        }

        if (input.Reader.TokenType != JsonTokenType.StartObject)
        {
            throw JsonTokens.Unexpected(ref input.Reader, $"an object for {descriptor.Name}");
        }

        value = new T();
        plan.Read(ref input, value, depth + 1);
        return true;
    }
}
