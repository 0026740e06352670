using System.Text.Json;
using Google.Protobuf;
using Google.Protobuf.Reflection;

namespace ProtoHttp.Json;

/// <summary>
/// How one message type is read: its field readers, found by JSON or proto name; or, when <paramref name="fields"/>
/// is null, the note that the type is read whole (a well-known type with a JSON form of its own).
/// </summary>
internal sealed class JsonReadPlan(JsonMessageReader owner, MessageDescriptor descriptor, JsonFieldReader[]? fields)
{
    public bool IsNative => fields is not null;

    private readonly int _oneofWords = (descriptor.Oneofs.Count + 63) / 64;

    /// <summary>
    /// Reads the object at the current token (a StartObject) into <paramref name="message"/>, at nesting level
    /// <paramref name="depth"/>; with <paramref name="skipTypeUrl"/> (the message packed in an Any) its first
    /// <c>@type</c> member is passed over.
    /// </summary>
    public void Read(ref JsonInput input, IMessage message, int depth, bool skipTypeUrl = false)
    {
        ref var reader = ref input.Reader;
        Span<ulong> seenOneofs = stackalloc ulong[_oneofWords];

        // The protobuf JSON spec refuses a field given twice, by either of its names (JsonParser keeps the last).
        Span<ulong> seenFields = stackalloc ulong[(fields!.Length + 63) / 64];
        var next = 0;
        while (reader.Read() && reader.TokenType == JsonTokenType.PropertyName)
        {
            if (skipTypeUrl && JsonAnyReader.IsTypeUrl(ref reader))
            {
                skipTypeUrl = false;
                reader.Read();
                continue;
            }

            var index = Find(ref reader, ref next);
            if (index < 0 && !owner.IgnoreUnknownFields)
            {
                throw new InvalidMessageException($"Unknown field \"{reader.GetString()}\" in {descriptor.Name}.");
            }

            var field = index < 0 ? null : fields[index];
            if (field is not null)
            {
                ref var word = ref seenFields[index / 64];
                var fieldBit = 1UL << (index % 64);
                if ((word & fieldBit) != 0)
                {
                    throw new InvalidMessageException($"The field {descriptor.Name}.{field.Field.Name} is given more than once.");
                }

                word |= fieldBit;
            }

            reader.Read();

            // A null member of a oneof sets nothing, so it does not stand in the way of another member.
            if (field is { Oneof: >= 0 } && (reader.TokenType != JsonTokenType.Null || field.NullIsValue))
            {
                ref var oneofWord = ref seenOneofs[field.Oneof / 64];
                var bit = 1UL << (field.Oneof % 64);
                if ((oneofWord & bit) != 0)
                {
                    throw new InvalidMessageException($"Multiple values specified for oneof {field.Field.ContainingOneof.Name} in {descriptor.Name}.");
                }

                oneofWord |= bit;
            }

            try
            {
                if (field is null)
                {
                    JsonSkipping.Skip(ref reader);
                }
                else
                {
                    field.Read(ref input, message, depth);
                }
            }
            catch (ValueFormatException ex)
            {
                throw new InvalidMessageException($"Invalid value for {descriptor.Name}.{field?.Field.Name ?? "(an ignored field)"}: {ex.Message}", ex);
            }
        }
    }

    // Fields usually arrive in declaration order, so the search starts after the last one found. JSON names are
    // tried first: JsonParser lets a JSON name win over another field's proto name. -1: no field has the name.
    private int Find(ref Utf8JsonReader reader, ref int next)
    {
        var plain = !reader.HasValueSequence && !reader.ValueIsEscaped;
        var name = plain ? reader.ValueSpan : default;
        foreach (var protoName in (ReadOnlySpan<bool>)[false, true])
        {
            for (var i = 0; i < fields!.Length; i++)
            {
                var index = next + i < fields.Length ? next + i : next + i - fields.Length;
                if (fields[index].Matches(ref reader, name, plain, protoName))
                {
                    next = index + 1;
                    return index;
                }
            }
        }

        return -1;
    }
}
