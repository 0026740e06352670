using Google.Protobuf;
using Google.Protobuf.Reflection;

namespace ProtoHttp.Xml;

/// <summary>A well-known type other than Timestamp, as the escaped text of its JSON form (<see cref="WellKnownText"/>).</summary>
internal sealed class XmlWellKnownWriter(FieldDescriptor field) : XmlValueWriter<IMessage>
{
    public override void Write(ref Utf8Output output, IMessage value) =>
        XmlStringText.Write(ref output, WellKnownText.Format(field.MessageType, value), field);
}
