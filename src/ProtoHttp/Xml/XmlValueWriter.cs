namespace ProtoHttp.Xml;

/// <summary>Writes one value of a field's type as an element's content (docs/protocol.md section 4).</summary>
internal abstract class XmlValueWriter<T>
{
    public abstract void Write(ref Utf8Output output, T value);

    /// <summary>Whether a proto3 field without presence holding this value is unset, as the binary encoding decides.</summary>
    public virtual bool IsDefault(T value) => false;
}
