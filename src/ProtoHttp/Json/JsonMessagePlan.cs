using Google.Protobuf;

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
        foreach (var field in fields)
        {
            field.Write(ref output, message, ref first);
        }

        // JsonFormatter closes an empty message as "{ }" and a filled one with " }".
        output.Write(first ? "}"u8 : " }"u8);
    }
}
