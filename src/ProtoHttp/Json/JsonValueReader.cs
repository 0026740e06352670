using System.Text.Json;

namespace ProtoHttp.Json;

/// <summary>Reads one value of a field's C# type from the current token, as JsonParser would for that field.</summary>
internal abstract class JsonValueReader<T>
{
    /// <summary>Whether JSON null is a value (google.protobuf.Value, NullValue) rather than "absent".</summary>
    public virtual bool AcceptsNull => false;

    /// <summary>
    /// Reads the value starting at the current token and leaves the reader on its last token. False when the value
    /// is to be skipped (an unknown enum name while unknown fields are ignored). <paramref name="depth"/> is the
    /// nesting level of the message holding the value (the root is 1).
    /// </summary>
    public abstract bool TryRead(ref JsonInput input, int depth, out T value);

    /// <summary>Reads a map key from the current property name.</summary>
    public virtual T ReadKey(ref Utf8JsonReader reader) => throw new InvalidOperationException($"{GetType().Name} cannot read map keys.");
}
