using System.Text.Json;
using Google.Protobuf.Reflection;

namespace ProtoHttp.Json;

/// <summary>
/// Reads one value of type <typeparamref name="T"/>. Every reader derives from one closed instance of this type, so
/// the generic code over it (<see cref="JsonRepeatedFieldReader{T}"/>) is compiled ahead of time, value types included.
/// </summary>
internal abstract class JsonValueReader<T> : JsonValueReader
{
    /// <summary>
    /// Reads the value starting at the current token and leaves the reader on its last token. False when the value
    /// is to be skipped (an unknown enum name while unknown fields are ignored). <paramref name="depth"/> is the
    /// nesting level of the message holding the value (the root is 1).
    /// </summary>
    public abstract bool TryRead(ref JsonInput input, int depth, out T value);

    /// <summary>Reads a map key from the current property name.</summary>
    public virtual T ReadKey(ref Utf8JsonReader reader) => throw new InvalidOperationException($"{GetType().Name} cannot read map keys.");

    public sealed override bool TryReadBoxed(ref JsonInput input, int depth, out object value)
    {
        var read = TryRead(ref input, depth, out var typed);
        value = typed!;
        return read;
    }

    public sealed override object ReadKeyBoxed(ref Utf8JsonReader reader) => ReadKey(ref reader)!;

    // Typed where the runtime compiles code, so numbers, bools and enums are not boxed (TypedFieldAccess).
    public sealed override JsonFieldReader Singular(FieldDescriptor field) =>
        TypedFieldAccess.Setter<T>(field) is { } setter
            ? new JsonTypedSingularFieldReader<T>(field, this, setter)
            : new JsonSingularFieldReader(field, this);

    public sealed override JsonFieldReader Repeated(FieldDescriptor field) => new JsonRepeatedFieldReader<T>(field, this);
}
