using Google.Protobuf;
using Google.Protobuf.Collections;

namespace ProtoHttp.Xml;

/// <summary>A map field: one <c>&lt;field&gt;&lt;key&gt;…&lt;/key&gt;&lt;value&gt;…&lt;/value&gt;&lt;/field&gt;</c> per entry, in the map's order.</summary>
internal sealed class XmlMapField<TMessage, TKey, TValue>(
    string name, Func<TMessage, MapField<TKey, TValue>> getter, XmlValueWriter<TKey> keys, XmlValueWriter<TValue> values) : XmlFieldWriter(name)
    where TMessage : class, IMessage
    where TKey : notnull
{
    public override void Write(ref Utf8Output output, IMessage message)
    {
        foreach (var entry in getter((TMessage)message))
        {
            WriteStart(ref output);
            output.Write("<key>"u8);
            keys.Write(ref output, entry.Key);
            output.Write("</key><value>"u8);
            values.Write(ref output, entry.Value);
            output.Write("</value>"u8);
            WriteEnd(ref output);
        }
    }
}
