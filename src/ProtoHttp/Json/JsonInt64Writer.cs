namespace ProtoHttp.Json;

/// <summary>int64, sint64 and sfixed64: always quoted, since JavaScript numbers lose precision past 2^53.</summary>
internal sealed class JsonInt64Writer : JsonValueWriter<long>
{
    public static JsonInt64Writer Instance { get; } = new();

    public override void Write(ref Utf8Output output, long value) => JsonNumberText.Write(ref output, value, quoted: true);

    public override bool IsDefault(long value) => value == 0;
}
