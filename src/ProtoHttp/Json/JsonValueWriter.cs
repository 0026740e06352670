using Google.Protobuf.Reflection;

namespace ProtoHttp.Json;

/// <summary>
/// Writes the values of one field type, as JsonFormatter writes them (see <see cref="JsonMessageWriter"/>). The
/// members here take values as protobuf reflection gives them, boxed, so a plan needs no generic type made at run time.
/// </summary>
internal abstract class JsonValueWriter
{
    /// <summary>Writes a value as <see cref="Google.Protobuf.Reflection.IFieldAccessor"/> returns it.</summary>
    public abstract void WriteBoxed(ref Utf8Output output, object value);

    /// <summary>Whether a proto3 field without presence holding this value is left out (JsonFormatter's IsDefaultValue).</summary>
    public abstract bool IsDefaultBoxed(object value);

    /// <summary>A writer for a singular field of this writer's values.</summary>
    public abstract JsonFieldWriter Singular(byte[] name, FieldDescriptor field, FieldPresence presence);

    /// <summary>A writer for a repeated field of this writer's values.</summary>
    public abstract JsonFieldWriter Repeated(byte[] name, FieldDescriptor field);
}
