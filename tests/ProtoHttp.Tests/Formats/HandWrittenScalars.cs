using Google.Protobuf;
using Google.Protobuf.WellKnownTypes;
using ProtoHttp.Tests.Protos;

namespace ProtoHttp.Tests.Formats;

/// <summary>
/// The message that the hand-written XML document and form query of every scalar kind stand for, written out by hand
/// (<see cref="XmlCodecTests"/>, <see cref="FormBinderTests"/>): the oracle is this text, not a codec.
/// </summary>
internal static class HandWrittenScalars
{
    /// <param name="text">The string field's value, which each format escapes its own way.</param>
    public static Scalars Expected(string text) => new()
    {
        DoubleValue = -1.5e300, FloatValue = 3.25f, Int32Value = int.MinValue, Int64Value = long.MinValue,
        Uint32Value = uint.MaxValue, Uint64Value = ulong.MaxValue, Sint32Value = -7, Sint64Value = -70_000_000_000,
        Fixed32Value = 7, Fixed64Value = 70_000_000_000, Sfixed32Value = -8, Sfixed64Value = -80_000_000_000, BoolValue = true,
        StringValue = text, BytesValue = ByteString.CopyFrom(0x00, 0x01, 0xFF), Color = Color.Green,
        Tags = { "a", "b" }, Numbers = { 1, -2 }, OptionalInt32 = 0, OptionalString = "",
        Created = new Timestamp { Seconds = 836474400, Nanos = 500_000_000 }, // 1996-07-04T10:00:00.500Z
        Timeout = new Duration { Seconds = 1, Nanos = 500_000_000 },
        Limit = -3, Note = "n", Labels = { ["k"] = "v" }, Colors = { Color.Red, Color.Green },
    };
}
