using System.Text;
using Google.Protobuf;

namespace ProtoHttp.Xml;

/// <summary>One field of an <see cref="XmlMessagePlan"/>: decides whether the field is set, then writes its elements.</summary>
internal abstract class XmlFieldWriter(string name)
{
    // Proto field names are ASCII identifiers: nothing to escape.
    private readonly byte[] _start = Encoding.UTF8.GetBytes($"<{name}>");
    private readonly byte[] _end = Encoding.UTF8.GetBytes($"</{name}>");

    public abstract void Write(ref Utf8Output output, IMessage message);

    protected void WriteStart(ref Utf8Output output) => output.Write(_start);

    protected void WriteEnd(ref Utf8Output output) => output.Write(_end);

    /// <summary>One element holding <paramref name="value"/>.</summary>
    protected void WriteElement<T>(ref Utf8Output output, XmlValueWriter<T> writer, T value)
    {
        output.Write(_start);
        writer.Write(ref output, value);
        output.Write(_end);
    }
}
