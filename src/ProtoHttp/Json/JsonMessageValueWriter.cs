using Google.Protobuf;
using Google.Protobuf.Reflection;

namespace ProtoHttp.Json;

/// <summary>A nested (non-well-known) message, through its type's plan, looked up on first use so recursive types work.</summary>
internal sealed class JsonMessageValueWriter(JsonMessageWriter owner, MessageDescriptor descriptor) : JsonValueWriter<IMessage>
{
    private JsonMessagePlan? _plan;

    public override void Write(ref Utf8Output output, IMessage value)
    {
        // Benign race: every thread computes the same cached plan.
        _plan ??= owner.PlanFor(descriptor);
        _plan.Write(ref output, value);
    }
}
