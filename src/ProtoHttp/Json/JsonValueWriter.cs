namespace ProtoHttp.Json;

/// <summary>Writes one value of a field's type, as JsonFormatter writes it (see <see cref="JsonMessageWriter"/>).</summary>
internal abstract class JsonValueWriter<T>
{
    public abstract void Write(ref Utf8Output output, T value);

    /// <summary>Whether a proto3 field without presence holding this value is left out (JsonFormatter's IsDefaultValue).</summary>
    public virtual bool IsDefault(T value) => false;
}
