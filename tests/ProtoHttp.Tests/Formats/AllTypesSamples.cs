using Google.Protobuf;
using Google.Protobuf.WellKnownTypes;
using ProtoHttp.Tests.Protos;
using ProtoHttp.Tests.Protos.Proto2;

namespace ProtoHttp.Tests.Formats;

/// <summary>Messages of every type in all_types*.proto, filled with realistic and edge values.</summary>
internal static class AllTypesSamples
{
    /// <summary>Every sample's name, once with JSON's lowerCamelCase names and once with the proto names (true).</summary>
    public static TheoryData<string, bool> NamesWithBothJsonNameStyles()
    {
        var data = new TheoryData<string, bool>();
        foreach (var name in All.Keys)
        {
            data.Add(name, false);
            data.Add(name, true);
        }

        return data;
    }

    public static IReadOnlyDictionary<string, IMessage> All { get; } = new Dictionary<string, IMessage>
    {
        ["scalars"] = FullScalars(),
        ["scalars-edges-min"] = EdgeScalars(min: true),
        ["scalars-edges-max"] = EdgeScalars(min: false),
        ["scalars-empty"] = new Scalars(),
        ["nested"] = new Nested { Name = "outer", Value = -1, Child = new Nested { Name = "inner", Child = new Nested() } },
        ["tree"] = Tree(),
        ["repeated"] = Repeated(),
        ["maps"] = Maps(),
        ["choice-text"] = new Choice { Text = "", After = "x" },
        ["choice-number"] = new Choice { Number = long.MinValue },
        ["choice-message"] = new Choice { Message = new Nested { Name = "in a oneof" } },
        ["choice-color"] = new Choice { Color = Color.Unspecified },
        ["choice-time"] = new Choice { Time = new Timestamp { Seconds = 0, Nanos = 1 } },
        ["choice-blob"] = new Choice { Blob = ByteString.Empty },
        ["optionals-defaults"] = new Optionals { DoubleValue = -0.0, FloatValue = 0, Int64Value = 0, Uint64Value = 0, BoolValue = false, StringValue = "", BytesValue = ByteString.Empty, Color = Color.Unspecified },
        ["optionals-values"] = new Optionals { DoubleValue = double.Epsilon, FloatValue = float.MaxValue, Int64Value = long.MaxValue, Uint64Value = ulong.MaxValue, BoolValue = true, StringValue = "ü", BytesValue = ByteString.CopyFrom(0xFF), Color = (Color)(-5) },
        ["well-known"] = WellKnown(),
        ["well-known-empty-values"] = new WellKnown { DoubleWrapper = 0, StringWrapper = "", BytesWrapper = ByteString.Empty, BoolWrapper = false, Empty = new Empty(), Value = Value.ForNull(), Struct = new Struct(), ListValue = new ListValue(), FieldMask = new FieldMask() },
        ["all-types"] = new AllTypes
        {
            Scalars = FullScalars(),
            Nested = new Nested { Name = "n" },
            Tree = Tree(),
            Repeated = Repeated(),
            Maps = Maps(),
            Choice = new Choice { Message = new Nested() },
            Optionals = new Optionals { StringValue = "" },
            WellKnown = WellKnown(),
            ScalarsList = { EdgeScalars(min: true), new Scalars(), EdgeScalars(min: false) },
        },
        ["proto2"] = Legacy(),
        ["proto2-defaults"] = new Legacy { Id = "" },
        ["proto2-explicit-defaults"] = new Legacy { Id = "x", Count = 42, Label = "none", Size = Size.Medium, Ratio = 0.5, Enabled = true, Payload = ByteString.CopyFromUtf8("abc") },
    };

    private static Scalars FullScalars() => new()
    {
        DoubleValue = 3.14159265358979,
        FloatValue = 2.5e-3f,
        Int32Value = -42,
        Int64Value = 1234567890123456789,
        Uint32Value = 4000000000,
        Uint64Value = 18000000000000000000,
        Sint32Value = -7,
        Sint64Value = -9000000000,
        Fixed32Value = 7,
        Fixed64Value = 9,
        Sfixed32Value = -11,
        Sfixed64Value = -13,
        BoolValue = true,
        StringValue = "Chai & <Chang> \"tea\" 'ü' 日本 😀 \t tab\r\nnew line ]]>",
        BytesValue = ByteString.CopyFrom(0, 1, 2, 0xFE, 0xFF, 0x3E),
        Color = Color.Blue,
        Tags = { "a", "", " spaced ", "a" },
        Numbers = { 1, -1, int.MaxValue },
        OptionalInt32 = 0,
        OptionalString = "",
        Created = new Timestamp { Seconds = 1_700_000_000, Nanos = 123_000_000 },
        Timeout = new Duration { Seconds = 1, Nanos = 500_000_000 },
        Limit = 0,
        Note = "",
        Labels = { ["k"] = "v", [""] = "", ["ü & <"] = "x y" },
        Colors = { Color.Red, (Color)7, Color.Unspecified },
    };

    private static Scalars EdgeScalars(bool min) => new()
    {
        DoubleValue = min ? double.NegativeInfinity : double.PositiveInfinity,
        FloatValue = min ? float.NaN : float.MinValue,
        Int32Value = min ? int.MinValue : int.MaxValue,
        Int64Value = min ? long.MinValue : long.MaxValue,
        Uint32Value = min ? 1 : uint.MaxValue,
        Uint64Value = min ? 1 : ulong.MaxValue,
        Sint32Value = min ? int.MinValue : int.MaxValue,
        Sint64Value = min ? long.MinValue : long.MaxValue,
        Fixed32Value = uint.MaxValue,
        Fixed64Value = ulong.MaxValue,
        Sfixed32Value = min ? int.MinValue : int.MaxValue,
        Sfixed64Value = min ? long.MinValue : long.MaxValue,
        StringValue = min ? " " : "\n",
        Color = (Color)int.MaxValue,
        Created = min ? new Timestamp { Seconds = -62_135_596_800 } : new Timestamp { Seconds = 253_402_300_799, Nanos = 999_999_999 },
        Timeout = min ? new Duration { Seconds = -315_576_000_000, Nanos = -999_999_999 } : new Duration { Nanos = -1_000 },
        Limit = min ? int.MinValue : int.MaxValue,
    };

    private static Tree Tree() => new()
    {
        Label = "root",
        Next = new Tree { Label = "next", Next = new Tree { Children = { new Tree { Label = "deep" } } } },
        Children = { new Tree { Label = "a" }, new Tree(), new Tree { Label = "c", Children = { new Tree { Label = "c1" } } } },
    };

    private static Repeated Repeated() => new()
    {
        Doubles = { 0, -0.0, double.NaN, double.PositiveInfinity, double.NegativeInfinity, double.MaxValue, double.Epsilon, 0.1, 1e21, -1.5e-300 },
        Floats = { 0, -0.0f, float.NaN, float.PositiveInfinity, float.NegativeInfinity, float.MaxValue, float.Epsilon, 0.1f, 16777217 },
        Int32S = { 0, int.MinValue, int.MaxValue },
        Int64S = { 0, long.MinValue, long.MaxValue },
        Uint32S = { 0, uint.MaxValue },
        Uint64S = { 0, ulong.MaxValue },
        Sint32S = { int.MinValue, -1, 1 },
        Sint64S = { long.MinValue, -1, long.MaxValue },
        Fixed32S = { uint.MaxValue },
        Fixed64S = { ulong.MaxValue },
        Sfixed32S = { int.MinValue },
        Sfixed64S = { long.MinValue },
        Bools = { true, false, true },
        Strings = { "", "x", "日本語", "a&b", "emoji 😀" },
        Blobs = { ByteString.Empty, ByteString.CopyFrom(1), ByteString.CopyFrom(new byte[300]) },
        Colors = { Color.Green, (Color)42, Color.Unspecified },
        Messages = { new Nested(), new Nested { Name = "m" } },
        UnpackedInt32S = { 1, 2, -3 },
        UnpackedDoubles = { double.NaN, -0.0 },
        UnpackedColors = { Color.Red, (Color)99 },
    };

    private static Maps Maps() => new()
    {
        StringToString = { ["a"] = "1", [""] = "empty key", ["<&>"] = "" },
        Int32ToString = { [int.MinValue] = "min", [0] = "zero", [-1] = "minus one" },
        Int64ToMessage = { [long.MaxValue] = new Nested { Name = "max" }, [0] = new Nested() },
        BoolToEnum = { [true] = Color.Red, [false] = (Color)12 },
        Uint64ToBytes = { [ulong.MaxValue] = ByteString.CopyFromUtf8("bytes"), [1] = ByteString.Empty },
        Sint32ToDouble = { [-5] = double.NaN, [5] = double.NegativeInfinity },
        Fixed64ToFloat = { [7] = -0.0f },
        StringToTimestamp = { ["epoch"] = new Timestamp(), ["later"] = new Timestamp { Seconds = 86_400, Nanos = 1_000 } },
        Uint32ToWrapper = { [1] = long.MinValue, [2] = 0 },
        StringToTree = { ["t"] = new Tree { Label = "in a map", Next = new Tree { Label = "deeper" } } },
    };

    private static WellKnown WellKnown() => new()
    {
        Timestamp = Timestamp.FromDateTime(new DateTime(1996, 7, 4, 12, 30, 15, DateTimeKind.Utc)),
        Duration = Duration.FromTimeSpan(TimeSpan.FromMilliseconds(-1500)),
        DoubleWrapper = double.NaN,
        FloatWrapper = float.NegativeInfinity,
        Int64Wrapper = long.MinValue,
        Uint64Wrapper = ulong.MaxValue,
        Int32Wrapper = -1,
        Uint32Wrapper = uint.MaxValue,
        BoolWrapper = true,
        StringWrapper = "wrapped ü",
        BytesWrapper = ByteString.CopyFrom(9, 8, 7),
        FieldMask = new FieldMask { Paths = { "scalars.int32_value", "well_known" } },
        Struct = new Struct
        {
            Fields =
            {
                ["name"] = Value.ForString("Chai <tea>"),
                ["price"] = Value.ForNumber(18.5),
                ["stock"] = Value.ForList(Value.ForNumber(1), Value.ForBool(false), Value.ForNull()),
                ["nested"] = Value.ForStruct(new Struct { Fields = { ["x"] = Value.ForString("") } }),
            },
        },
        Value = Value.ForString("just a string"),
        ListValue = new ListValue { Values = { Value.ForNumber(-0.5), Value.ForString("two") } },
        Empty = new Empty(),
        Timestamps = { new Timestamp(), new Timestamp { Seconds = -1, Nanos = 999_999_999 }, new Timestamp { Seconds = 1, Nanos = 100_000 } },
        Int32Wrappers = { 0, int.MinValue },
        Durations = { new Duration(), new Duration { Seconds = 315_576_000_000 }, new Duration { Nanos = 1 } },
        Values = { Value.ForNumber(3), Value.ForBool(true), Value.ForNull(), Value.ForString("\"quoted\"") },
    };

    private static Legacy Legacy() => new()
    {
        Id = "L-1",
        Count = -1,
        Label = "",
        Size = Size.Large,
        Ratio = double.NaN,
        Enabled = false,
        Payload = ByteString.Empty,
        Packed = { 1, 2, 3 },
        Unpacked = { -1, 0 },
        Item = { new Legacy.Types.Item { Name = "first", Quantity = 2 }, new Legacy.Types.Item { Name = "" } },
        Extra = new Legacy.Types.Extra { Note = "grouped" },
        Child = new Legacy { Id = "child", Extra = new Legacy.Types.Extra() },
        Sizes = { ["s"] = Size.Small, ["unnamed"] = (Size)9 },
        KindNumber = 0,
        Big = ulong.MaxValue,
        Small = long.MinValue,
        Fixed = 0,
        Fraction = -0.0f,
        SizesList = { Size.Small, (Size)100 },
    };
}
