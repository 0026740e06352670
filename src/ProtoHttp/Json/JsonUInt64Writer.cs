namespace ProtoHttp.Json;

/// <summary>uint64 and fixed64: always quoted, since JavaScript numbers lose precision past 2^53.</summary>
internal sealed class JsonUInt64Writer : JsonValueWriter<ulong>
{
    public static JsonUInt64Writer Instance { get; } = new();

    public override void Write(ref Utf8Output output, ulong value) => JsonNumberText.Write(ref output, value, quoted: true);

    public override bool IsDefault(ulong value) => value == 0;
}
