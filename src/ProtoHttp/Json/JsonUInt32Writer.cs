namespace ProtoHttp.Json;

/// <summary>uint32 and fixed32: bare digits, or quoted as a map key.</summary>
internal sealed class JsonUInt32Writer(bool quoted) : JsonValueWriter<uint>
{
    public override void Write(ref Utf8Output output, uint value) => JsonNumberText.Write(ref output, value, quoted);

    public override bool IsDefault(uint value) => value == 0;
}
