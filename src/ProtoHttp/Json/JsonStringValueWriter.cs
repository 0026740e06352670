namespace ProtoHttp.Json;

/// <summary>string: escaped as JsonFormatter escapes (see <see cref="JsonStringText"/>).</summary>
internal sealed class JsonStringValueWriter : JsonValueWriter<string>
{
    public static JsonStringValueWriter Instance { get; } = new();

    public override void Write(ref Utf8Output output, string value) => JsonStringText.Write(ref output, value);

    public override bool IsDefault(string value) => value.Length == 0;
}
