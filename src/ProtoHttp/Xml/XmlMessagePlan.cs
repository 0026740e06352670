using Google.Protobuf;

namespace ProtoHttp.Xml;

/// <summary>A message type's field writers in field-number order, the order its elements are written in.</summary>
internal sealed class XmlMessagePlan(XmlFieldWriter[] fields)
{
    /// <summary>Writes the elements of the set fields: the content of the message's own element.</summary>
    public void WriteFields(ref Utf8Output output, IMessage message)
    {
        foreach (var field in fields)
        {
            field.Write(ref output, message);
        }
    }
}
