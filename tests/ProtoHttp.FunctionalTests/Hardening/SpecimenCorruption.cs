namespace ProtoHttp.FunctionalTests.Hardening;

/// <summary>
/// Texts that are certainly not a value of a leaf's kind (docs/protocol.md section 4: out of range, not a number, no
/// such name, not base64, not RFC 3339), and an unknown field name: what a generated case makes wrong on purpose.
/// </summary>
public static class SpecimenCorruption
{
    private static readonly Dictionary<LeafKind, string[]> WrongTexts = new()
    {
        [LeafKind.Signed32] = ["2147483648", "-2147483649", "x1", "1.5", "1e3", "0x10"],
        [LeafKind.Signed64] = ["9223372036854775808", "-9223372036854775809", "1.5", "abc", "1_000"],
        [LeafKind.Unsigned32] = ["-1", "4294967296", "1.5", "u"],
        [LeafKind.Unsigned64] = ["-1", "18446744073709551616", "1.5", "u"],
        [LeafKind.Floating] = ["abc", "1.2.3", "1e", "--1", "0x1p3"],
        [LeafKind.Bool] = ["maybe", "2", "yes", "tru"],
        [LeafKind.Enum] = ["PURPLE", "GREEN2", "RED_"],
        [LeafKind.Bytes] = ["!!", "@@@@", "QU?D"],
        [LeafKind.Timestamp] = ["2019-13-45T00:00:00Z", "yesterday", "2019-01-01T25:00:00Z"],
        [LeafKind.Duration] = ["forever", "1.5", "1.5m", "315576000001s"],
        [LeafKind.Int32Wrapper] = ["x", "2147483648", "1.5"],
    };

    /// <summary>The leaves of <paramref name="fields"/> that can be given a wrong text (strings cannot: every text is a string).</summary>
    public static IReadOnlyList<(SpecimenText.Leaf Leaf, string FormKey)> Corruptible(IReadOnlyList<SpecimenText> fields, bool mapKeys) =>
        fields.SelectMany(f => SpecimenText.Leaves(f, mapKeys)).Where(l => WrongTexts.ContainsKey(l.Leaf.Kind)).ToList();

    public static string WrongText(Random random, LeafKind kind) => random.Pick(WrongTexts[kind]);

    /// <summary>A name no message of the suite has.</summary>
    public static string UnknownName(Random random) => random.Pick(new[] { "nope", "i33", "text_", "colour" });
}
