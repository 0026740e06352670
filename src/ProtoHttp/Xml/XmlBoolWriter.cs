namespace ProtoHttp.Xml;

/// <summary>bool: <c>true</c> or <c>false</c>.</summary>
internal sealed class XmlBoolWriter : XmlValueWriter<bool>
{
    public static XmlBoolWriter Instance { get; } = new();

    public override void Write(ref Utf8Output output, bool value) => output.Write(value ? "true"u8 : "false"u8);

    public override bool IsDefault(bool value) => !value;
}
