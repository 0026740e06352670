namespace ProtoHttp.Json;

/// <summary>double: round-trip text; NaN and the infinities quoted.</summary>
internal sealed class JsonDoubleWriter : JsonValueWriter<double>
{
    public static JsonDoubleWriter Instance { get; } = new();

    public override void Write(ref Utf8Output output, double value) =>
        JsonNumberText.WriteFloating(ref output, value, double.IsFinite(value));

    // -0.0 == 0.0, so JsonFormatter leaves out a proto3 -0 as well.
    public override bool IsDefault(double value) => value == 0.0;
}
