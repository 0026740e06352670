using Google.Protobuf;

namespace ProtoHttp.Json;

/// <summary>One field of a <see cref="JsonMessagePlan"/>: decides whether JsonFormatter would write it, then writes it.</summary>
internal abstract class JsonFieldWriter(byte[] name)
{
    // The quoted name and ": ", with and without the ", " that separates it from a previous field.
    private readonly byte[] _first = [.. name, .. ": "u8];
    private readonly byte[] _next = [.. ", "u8, .. name, .. ": "u8];

    public abstract void Write(ref Utf8Output output, IMessage message, ref bool first);

    protected void WriteName(ref Utf8Output output, ref bool first)
    {
        output.Write(first ? _first : _next);
        first = false;
    }
}
