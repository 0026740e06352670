using Google.Protobuf;
using Google.Protobuf.Reflection;

namespace ProtoHttp.Json;

/// <summary>
/// A message type's fields in JsonFormatter's order (field number), each with its name bytes and writer; or, when
/// <paramref name="fields"/> is null, the note that some field is beyond the native writer and JsonFormatter writes it all.
/// </summary>
internal sealed class JsonMessagePlan(JsonMessageWriter owner, JsonFieldWriter[]? fields)
{
    public void Write(ref Utf8Output output, IMessage message)
    {
        if (fields is null)
        {
            owner.WriteDelegated(ref output, message);
            return;
        }

        output.Write("{ "u8);
        var first = true;
        JsonWriteDepth.Enter();
        foreach (var field in fields)
        {
            field.Write(ref output, message, ref first);
        }

        JsonWriteDepth.Exit();

        // JsonFormatter closes an empty message as "{ }" and a filled one with " }".
        output.Write(first ? "}"u8 : " }"u8);
    }

    /// <summary>The fields alone, each after a ", ": an <c>Any</c>'s packed message, whose object the <c>"@type"</c> opened.</summary>
    public void WriteFieldsAfter(ref Utf8Output output, IMessage message, MessageDescriptor descriptor)
    {
        if (fields is null)
        {
            // JsonFormatter would write this one whole, but it has no type registry, so Anys inside it would fail.
            throw new InvalidOperationException($"{descriptor.FullName} cannot be written inside an Any: the native JSON writer cannot model it.");
        }

        var first = false;
        foreach (var field in fields)
        {
            field.Write(ref output, message, ref first);
        }
    }
}
