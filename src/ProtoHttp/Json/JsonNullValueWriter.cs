using Google.Protobuf.WellKnownTypes;

namespace ProtoHttp.Json;

/// <summary>google.protobuf.NullValue: JSON's null, its only value, as JsonFormatter writes it.</summary>
internal sealed class JsonNullValueWriter : JsonValueWriter<NullValue>
{
    public static JsonNullValueWriter Instance { get; } = new();

    public override void Write(ref Utf8Output output, NullValue value) => output.Write("null"u8);

    public override bool IsDefault(NullValue value) => value == NullValue.NullValue;
}
