namespace ProtoHttp;

/// <summary>The singular fields already read into one message, so a second value is refused instead of silently winning.</summary>
internal struct SeenFields
{
    private ulong _first64;
    private HashSet<int>? _rest;

    /// <summary>Marks a field by its index; <see langword="false"/> when it was already marked.</summary>
    public bool Add(int fieldIndex)
    {
        if (fieldIndex < 64)
        {
            var bit = 1UL << fieldIndex;
            var added = (_first64 & bit) == 0;
            _first64 |= bit;
            return added;
        }

        return (_rest ??= []).Add(fieldIndex);
    }
}
