using System.Text.Json;
using Google.Protobuf.Reflection;

namespace ProtoHttp.Json;

/// <summary>
/// Reads values of one field type from the current token, as JsonParser would for that field. The members here give
/// values boxed, as protobuf reflection stores them, so a plan needs no generic type made at run time.
/// </summary>
internal abstract class JsonValueReader
{
    /// <summary>Whether JSON null is a value (google.protobuf.Value, NullValue) rather than "absent".</summary>
    public virtual bool AcceptsNull => false;

    /// <summary>As <see cref="JsonValueReader{T}.TryRead"/>, the value boxed for <see cref="IFieldAccessor.SetValue"/>.</summary>
    public abstract bool TryReadBoxed(ref JsonInput input, int depth, out object value);

    /// <summary>Reads a map key from the current property name, boxed.</summary>
    public abstract object ReadKeyBoxed(ref Utf8JsonReader reader);

    /// <summary>A reader for a singular field of this reader's values.</summary>
    public abstract JsonFieldReader Singular(FieldDescriptor field);

    /// <summary>A reader for a repeated field of this reader's values.</summary>
    public abstract JsonFieldReader Repeated(FieldDescriptor field);
}
