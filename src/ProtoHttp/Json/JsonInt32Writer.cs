namespace ProtoHttp.Json;

/// <summary>int32, sint32 and sfixed32: bare digits, or quoted as a map key.</summary>
internal sealed class JsonInt32Writer(bool quoted) : JsonValueWriter<int>
{
    public override void Write(ref Utf8Output output, int value) => JsonNumberText.Write(ref output, value, quoted);

    public override bool IsDefault(int value) => value == 0;
}
