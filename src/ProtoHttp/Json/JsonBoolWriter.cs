namespace ProtoHttp.Json;

/// <summary>bool: true or false, quoted as a map key.</summary>
internal sealed class JsonBoolWriter(bool quoted) : JsonValueWriter<bool>
{
    public override void Write(ref Utf8Output output, bool value)
    {
        if (quoted)
        {
            output.Write(value ? "\"true\""u8 : "\"false\""u8);
        }
        else
        {
            output.Write(value ? "true"u8 : "false"u8);
        }
    }

    public override bool IsDefault(bool value) => !value;
}
