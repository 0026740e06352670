namespace ProtoHttp.FunctionalTests.Hardening;

/// <summary>
/// Protobuf mutations that know the wire format: wrong wire types, over-long and 11-byte varints, lengths past the
/// end and of 2 GB, deep nesting, invalid UTF-8 in strings, groups that never end; and the format-blind ones.
/// </summary>
public static class ProtobufMutator
{
    private static readonly string[] ContentTypes = ["application/x-protobuf", "application/protobuf", "application/vnd.google.protobuf", "application/proto"];

    public static IEnumerable<FuzzCase> Cases(Random random, IReadOnlyList<(string Path, byte[] Body)> seeds, int count)
    {
        for (var i = 0; i < count; i++)
        {
            var (path, seed) = random.Pick(seeds);
            var (body, mutation) = Mutate(random, seed);
            yield return FuzzCase.Post(path, random.Pick(ContentTypes), body, mutation, Accept(random));
        }
    }

    /// <summary>The answer in the request's own format mostly, sometimes another: errors must be writable in each.</summary>
    public static string? Accept(Random random) => random.Next(6) switch
    {
        0 => "application/json",
        1 => "application/xml",
        2 => "application/x-protobuf",
        _ => null,
    };

    public static (byte[] Body, string Mutation) Mutate(Random random, byte[] seed)
    {
        var fields = TopLevelFields(seed);
        switch (random.Next(12))
        {
            case 0 or 1 or 2:
                return Mutations.MutateBytes(random, seed, []);
            case 3 when fields.Count > 0:
            {
                // Same field number, another wire type (6 and 7 do not exist).
                var field = random.Pick(fields);
                var tag = ReadVarint(seed, field.Start, out _);
                var wrong = (tag & ~7UL) | (uint)((((int)(tag & 7)) + 1 + random.Next(7)) % 8);
                return (Splice(seed, field.Start, field.TagLength, Varint(wrong)), "wrong wire type");
            }

            case 4:
            {
                // An int field whose value is a 10-byte varint (legal but over-long) or an 11-byte one (never legal).
                var eleven = random.Next(2) == 0;
                var varint = Enumerable.Repeat((byte)0xFF, eleven ? 10 : 9).Append((byte)0x01).ToArray();
                byte[] field = [.. Varint(random.Pick(new ulong[] { 1 << 3, 2 << 3, 3 << 3, 8 << 3 })), .. varint];
                return (Insert(seed, random, fields, field), eleven ? "11-byte varint" : "over-long varint");
            }

            case 5 when fields.Any(f => f.WireType == 2):
            {
                var field = random.Pick(fields.Where(f => f.WireType == 2).ToList());
                var length = ReadVarint(seed, field.Start + field.TagLength, out var lengthBytes);
                var longer = length + 1 + (ulong)random.Next(1000);
                return (Splice(seed, field.Start + field.TagLength, lengthBytes, Varint(longer)), "length past the end");
            }

            case 6:
            {
                var length = random.Pick(new ulong[] { 0x7FFF_FFFF, 0x8000_0000, 0xFFFF_FFFF, 0xFFFF_FFFF_FFFF_FFFF, 0x1_0000_0000 });
                byte[] field = [.. Varint(((ulong)random.Pick(new[] { 1, 14, 15, 17, 21, 99 }) << 3) | 2), .. Varint(length), 1, 2, 3];
                return (random.Next(2) == 0 ? [.. seed, .. field] : Insert(seed, random, fields, field), $"length prefix {length:N0}");
            }

            case 7:
            {
                var depth = random.Pick(new[] { 99, 100, 101, 150, 1_000, 20_000 });
                return ([.. seed, .. Nested(depth)], $"nesting depth {depth}");
            }

            case 8:
            {
                // Field 1 of SearchRequest, 2 of Order and 14 of Specimen are strings; elsewhere it is another field's bytes.
                var invalid = random.Pick(Mutations.InvalidUtf8);
                byte[] text = [.. Mutations.Utf8("ok"), .. invalid, .. Mutations.Utf8("ok")];
                byte[] field = [.. Varint(((ulong)random.Pick(new[] { 1, 2, 9, 14, 19 }) << 3) | 2), .. Varint((ulong)text.Length), .. text];
                return (Insert(seed, random, fields, field), "invalid UTF-8 string");
            }

            case 9:
            {
                var number = (ulong)random.Pick(new[] { 1, 5, 17, 100, 1000 });
                byte[] group = random.Next(4) switch
                {
                    0 => [.. Varint((number << 3) | 3), 8, 1], // started, never ended
                    1 => [.. Varint((number << 3) | 4)], // ended, never started
                    2 => [.. Varint((number << 3) | 3), .. Varint(((number + 1) << 3) | 4)], // ended with another number
                    _ => [.. Enumerable.Range(0, random.Pick(new[] { 50, 101, 5_000 })).SelectMany(_ => Varint((number << 3) | 3))], // nested, never ended
                };
                return (random.Next(2) == 0 ? [.. seed, .. group] : Insert(seed, random, fields, group), "group that never ends");
            }

            case 10:
            {
                byte[] tag = random.Next(4) switch
                {
                    0 => [0x00, 0x01], // field number 0
                    1 => [.. Varint(((ulong)536_870_911 << 3) | 0), 1], // the largest field number: kept as unknown
                    2 => [.. Varint((536_870_912UL << 3) | 0), 1], // past the largest
                    _ => [0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0x01], // a 64-bit tag
                };
                return (Insert(seed, random, fields, tag), "bad tag");
            }

            default:
            {
                // Packed repeated int32 (Specimen.numbers) and a map entry whose inner lengths are wrong.
                byte[] inner = random.Next(2) == 0 ? [0x80, 0x80, 0x80] : [0x0A, 0x05, 0x61, 0x10, 0x01];
                byte[] field = [.. Varint(random.Next(2) == 0 ? (20UL << 3) | 2 : (21UL << 3) | 2), .. Varint((ulong)inner.Length), .. inner];
                return (Insert(seed, random, fields, field), "broken packed or map entry");
            }
        }
    }

    /// <summary>Specimen.child (field 17) nested <paramref name="depth"/> times, built from the inside out.</summary>
    public static byte[] Nested(int depth)
    {
        // Each level's length is the one inside it plus its own tag and length: computed first, written outside in.
        var lengths = new ulong[depth + 1];
        lengths[0] = 2; // i32 = 1 at the bottom
        for (var i = 1; i <= depth; i++)
        {
            lengths[i] = 2 + (ulong)Varint(lengths[i - 1]).Length + lengths[i - 1];
        }

        var buffer = new List<byte>((int)lengths[depth]);
        for (var i = depth; i >= 1; i--)
        {
            buffer.AddRange([0x8A, 0x01, .. Varint(lengths[i - 1])]);
        }

        buffer.AddRange([0x08, 0x01]);
        return buffer.ToArray();
    }

    public static byte[] Varint(ulong value)
    {
        var bytes = new List<byte>(10);
        do
        {
            var b = (byte)(value & 0x7F);
            value >>= 7;
            bytes.Add(value == 0 ? b : (byte)(b | 0x80));
        }
        while (value != 0);
        return bytes.ToArray();
    }

    private static byte[] Insert(byte[] seed, Random random, List<Field> fields, byte[] bytes)
    {
        var at = fields.Count == 0 ? 0 : random.Next(2) == 0 ? seed.Length : random.Pick(fields).Start;
        return Splice(seed, at, 0, bytes);
    }

    private static byte[] Splice(byte[] seed, int at, int remove, byte[] bytes) => [.. seed[..at], .. bytes, .. seed[(at + remove)..]];

    private static ulong ReadVarint(byte[] bytes, int at, out int length)
    {
        ulong value = 0;
        length = 0;
        while (at + length < bytes.Length && length < 10)
        {
            var b = bytes[at + length];
            value |= (ulong)(b & 0x7F) << (7 * length);
            length++;
            if (b < 0x80)
            {
                break;
            }
        }

        return value;
    }

    /// <summary>Where the top-level fields of a valid message start, so mutations can land on field boundaries.</summary>
    private static List<Field> TopLevelFields(byte[] message)
    {
        var fields = new List<Field>();
        var at = 0;
        while (at < message.Length)
        {
            var tag = ReadVarint(message, at, out var tagLength);
            var wireType = (int)(tag & 7);
            var next = at + tagLength;
            switch (wireType)
            {
                case 0:
                    ReadVarint(message, next, out var n);
                    next += n;
                    break;
                case 1:
                    next += 8;
                    break;
                case 2:
                    next += (int)ReadVarint(message, next, out var l) + l;
                    break;
                case 5:
                    next += 4;
                    break;
                default:
                    return fields; // Groups do not occur in the seeds.
            }

            fields.Add(new Field(at, tagLength, wireType));
            at = next;
        }

        return fields;
    }

    private readonly record struct Field(int Start, int TagLength, int WireType);
}
