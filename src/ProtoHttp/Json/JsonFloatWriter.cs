namespace ProtoHttp.Json;

/// <summary>float: round-trip text of the float itself (not widened to double); NaN and the infinities quoted.</summary>
internal sealed class JsonFloatWriter : JsonValueWriter<float>
{
    public static JsonFloatWriter Instance { get; } = new();

    public override void Write(ref Utf8Output output, float value) =>
        JsonNumberText.WriteFloating(ref output, value, float.IsFinite(value));

    // -0f == 0f, so JsonFormatter leaves out a proto3 -0 as well.
    public override bool IsDefault(float value) => value == 0f;
}
