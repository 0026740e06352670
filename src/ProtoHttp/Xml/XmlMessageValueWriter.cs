using Google.Protobuf;
using Google.Protobuf.Reflection;

namespace ProtoHttp.Xml;

/// <summary>A nested message as the elements of its fields, through its type's plan, looked up on first use so recursive types work.</summary>
internal sealed class XmlMessageValueWriter(MessageDescriptor descriptor) : XmlValueWriter<IMessage>
{
    private XmlMessagePlan? _plan;

    public override void Write(ref Utf8Output output, IMessage value)
    {
        // Benign race: every thread gets the same cached plan.
        _plan ??= XmlMessageWriter.PlanFor(descriptor);
        _plan.WriteFields(ref output, value);
    }
}
