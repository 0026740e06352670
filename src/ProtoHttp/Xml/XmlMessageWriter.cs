using System.Buffers;
using System.Collections.Concurrent;
using Google.Protobuf;
using Google.Protobuf.Reflection;

namespace ProtoHttp.Xml;

/// <summary>
/// Writes one message as ProtoHttp XML (docs/protocol.md section 4), UTF-8 straight into the output: each message type
/// gets an <see cref="XmlMessagePlan"/> once, with its elements' tags as bytes and a typed writer per field, so no
/// scalar is boxed and no value but a delegated well-known type becomes a string. Text is escaped as
/// <see cref="System.Xml.XmlDictionaryWriter"/> escapes it (see <see cref="XmlStringText"/>), and a string XML 1.0
/// cannot carry is refused with an <see cref="UnwritableMessageException"/> naming the field (the server answers
/// 406) rather than written as broken XML or silently altered: the caller can ask for JSON or protobuf, which carry it.
/// </summary>
internal static class XmlMessageWriter
{
    private static readonly ConcurrentDictionary<MessageDescriptor, XmlMessagePlan> Plans = new();
    private static readonly Func<MessageDescriptor, XmlMessagePlan> Build = descriptor => new XmlMessagePlan(XmlPlanBuilder.Build(descriptor));

    public static void Write(IMessage message, IBufferWriter<byte> output)
    {
        var xml = new Utf8Output(output);
        xml.Write("<root>"u8);
        PlanFor(message.Descriptor).WriteFields(ref xml, message);
        xml.Write("</root>"u8);
        xml.Flush();
    }

    public static XmlMessagePlan PlanFor(MessageDescriptor descriptor) => Plans.GetOrAdd(descriptor, Build);
}
