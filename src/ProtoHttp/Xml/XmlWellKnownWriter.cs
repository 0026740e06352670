using Google.Protobuf.Reflection;

namespace ProtoHttp.Xml;

/// <summary>A well-known type other than Timestamp, as the escaped text of its JSON form (<see cref="WellKnownText"/>).</summary>
internal sealed class XmlWellKnownWriter<T>(FieldDescriptor field) : XmlValueWriter<T>
    where T : class
{
    public override void Write(ref Utf8Output output, T value) =>
        XmlStringText.Write(ref output, WellKnownText.Format(field.MessageType, value), field);
}
