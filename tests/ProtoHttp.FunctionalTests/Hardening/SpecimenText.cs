namespace ProtoHttp.FunctionalTests.Hardening;

/// <summary>What kind of value a <see cref="SpecimenText.Leaf"/> holds: which wrong texts it can be given (<see cref="SpecimenCorruption"/>).</summary>
public enum LeafKind
{
    Signed32,
    Signed64,
    Unsigned32,
    Unsigned64,
    Floating,
    Bool,
    Enum,
    Bytes,
    Timestamp,
    Duration,
    Int32Wrapper,
    Text,
}

/// <summary>
/// A generated <see cref="Specimen"/>'s fields as text, written out by the test from the values it chose
/// (<see cref="SpecimenGenerator"/>), never by a codec: the XML and form writers of the suite render it, and the
/// message it stands for is the oracle the server's echo is compared with.
/// </summary>
public abstract record SpecimenText(string Name)
{
    /// <summary>A scalar field (or a map's key or value, a wrapper, a well-known type written as one text).</summary>
    public sealed record Leaf(string Name, string JsonName, string Value, LeafKind Kind) : SpecimenText(Name);

    /// <summary>A message field: its own fields' texts.</summary>
    public sealed record Message(string Name, string JsonName, IReadOnlyList<SpecimenText> Fields) : SpecimenText(Name);

    /// <summary>One map entry: its key's text and its value (a leaf or a message).</summary>
    public sealed record MapEntry(string Name, string JsonName, Leaf Key, SpecimenText Value) : SpecimenText(Name);

    /// <summary>
    /// Every leaf below (and including) <paramref name="text"/>, with the form key that reaches it; a map key is a
    /// leaf of its own (reached by the map's name) only with <paramref name="mapKeys"/>, as a form writes it in brackets.
    /// </summary>
    public static IEnumerable<(Leaf Leaf, string FormKey)> Leaves(SpecimenText text, bool mapKeys, string prefix = "")
    {
        IEnumerable<(Leaf Leaf, string FormKey)> leaves = text switch
        {
            Leaf leaf => [(leaf, prefix + leaf.Name)],
            Message message => message.Fields.SelectMany(f => Leaves(f, mapKeys, prefix + message.Name + ".")),
            MapEntry { Value: Leaf value } entry => [(value, $"{prefix}{entry.Name}[{entry.Key.Value}]")],
            MapEntry { Value: Message value } entry => value.Fields.SelectMany(f => Leaves(f, mapKeys, $"{prefix}{entry.Name}[{entry.Key.Value}].")),
            _ => [],
        };
        return mapKeys && text is MapEntry map ? leaves.Prepend((map.Key, prefix + map.Name)) : leaves;
    }

    /// <summary><paramref name="texts"/> with one leaf's value replaced (the same leaf instance, found by reference).</summary>
    public static IReadOnlyList<SpecimenText> Replace(IReadOnlyList<SpecimenText> texts, Leaf target, string value) =>
        texts.Select(t => Replace(t, target, value)).ToList();

    private static SpecimenText Replace(SpecimenText text, Leaf target, string value) => text switch
    {
        Leaf leaf when ReferenceEquals(leaf, target) => leaf with { Value = value },
        Message message => message with { Fields = Replace(message.Fields, target, value) },
        MapEntry entry => entry with { Key = (Leaf)Replace(entry.Key, target, value), Value = Replace(entry.Value, target, value) },
        _ => text,
    };
}
