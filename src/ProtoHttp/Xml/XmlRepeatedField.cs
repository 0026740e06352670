using Google.Protobuf;
using Google.Protobuf.Collections;

namespace ProtoHttp.Xml;

/// <summary>A repeated field: one element per item, siblings with the same name.</summary>
internal sealed class XmlRepeatedField<TMessage, T>(string name, Func<TMessage, RepeatedField<T>> getter, XmlValueWriter<T> writer) : XmlFieldWriter(name)
    where TMessage : class, IMessage
{
    public override void Write(ref Utf8Output output, IMessage message)
    {
        var list = getter((TMessage)message);
        for (var i = 0; i < list.Count; i++)
        {
            WriteElement(ref output, writer, list[i]);
        }
    }
}
