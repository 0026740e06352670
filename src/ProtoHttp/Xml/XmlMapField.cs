using System.Collections;
using Google.Protobuf;
using Google.Protobuf.Reflection;

namespace ProtoHttp.Xml;

/// <summary>A map field: one <c>&lt;field&gt;&lt;key&gt;…&lt;/key&gt;&lt;value&gt;…&lt;/value&gt;&lt;/field&gt;</c> per entry, in the map's order.</summary>
internal sealed class XmlMapField(FieldDescriptor field, XmlValueWriter keys, XmlValueWriter values) : XmlFieldWriter(field.Name)
{
    private readonly IFieldAccessor _accessor = field.Accessor;

    public override void Write(ref Utf8Output output, IMessage message)
    {
        // Through the non-generic dictionary: a plan closes no generic type over the map's key and value types.
        foreach (DictionaryEntry entry in (IDictionary)_accessor.GetValue(message))
        {
            WriteStart(ref output);
            output.Write("<key>"u8);
            keys.WriteBoxed(ref output, entry.Key);
            output.Write("</key><value>"u8);
            values.WriteBoxed(ref output, entry.Value!);
            output.Write("</value>"u8);
            WriteEnd(ref output);
        }
    }
}
