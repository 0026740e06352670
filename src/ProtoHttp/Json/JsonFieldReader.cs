using System.Text;
using System.Text.Json;
using Google.Protobuf;
using Google.Protobuf.Reflection;

namespace ProtoHttp.Json;

/// <summary>One field of a <see cref="JsonReadPlan"/>: the two names JsonParser accepts for it, and how its value is merged.</summary>
internal abstract class JsonFieldReader(FieldDescriptor field, string? key = null)
{
    // An extension has one key, its bracketed full name, for both.
    private readonly byte[] _jsonName = Encoding.UTF8.GetBytes(key ?? field.JsonName);
    private readonly byte[] _protoName = Encoding.UTF8.GetBytes(key ?? field.Name);

    public FieldDescriptor Field { get; } = field;

    /// <summary>The index of the field's oneof (proto3 optional's synthetic one included, as JsonParser counts it), or -1.</summary>
    public int Oneof { get; } = field.ContainingOneof?.Index ?? -1;

    /// <summary>
    /// Whether JSON null is a value of this field (a singular google.protobuf.Value or NullValue) rather than
    /// "not set"; a null that is not a value does not count as the member of a oneof.
    /// </summary>
    public bool NullIsValue { get; } = !field.IsRepeated && field.FieldType switch
    {
        FieldType.Enum => field.EnumType.FullName == "google.protobuf.NullValue",
        FieldType.Message => field.MessageType.FullName == "google.protobuf.Value",
        _ => false,
    };

    /// <summary>
    /// Whether the current property name is the field's JSON name (or, with <paramref name="protoName"/>, its proto
    /// name); <paramref name="name"/> holds the name's own bytes when <paramref name="plain"/> (no escapes, one segment).
    /// </summary>
    public bool Matches(ref Utf8JsonReader reader, ReadOnlySpan<byte> name, bool plain, bool protoName)
    {
        var expected = protoName ? _protoName : _jsonName;
        return plain ? name.SequenceEqual(expected) : reader.ValueTextEquals(expected);
    }

    /// <summary>Reads the value at the current token (null included) into <paramref name="message"/>.</summary>
    public abstract void Read(ref JsonInput input, IMessage message, int depth);
}
