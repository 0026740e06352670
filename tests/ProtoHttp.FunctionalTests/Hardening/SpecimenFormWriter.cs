using System.Text;

namespace ProtoHttp.FunctionalTests.Hardening;

/// <summary>
/// Writes <see cref="SpecimenText"/> as a form body or query string by hand (docs/protocol.md section 4): dotted
/// paths into messages, <c>map[key]=value</c>, a repeated key per item; a space as <c>+</c> or <c>%20</c>, every
/// other byte that needs it percent-encoded in upper or lower case hex, some that do not need it encoded too;
/// pairs in any order (a repeated field's items keep theirs) with empty pairs between them.
/// </summary>
public sealed class SpecimenFormWriter(Random random)
{
    public string Write(IReadOnlyList<SpecimenText> fields)
    {
        var pairs = fields
            .SelectMany(f => SpecimenText.Leaves(f, mapKeys: false))
            .GroupBy(l => l.FormKey.Split('[')[0])
            .OrderBy(_ => random.Next())
            .SelectMany(g => g)
            .Select(l => Encode(l.FormKey) + "=" + Encode(l.Leaf.Value));
        return string.Join("&", pairs.SelectMany(p => random.Next(8) == 0 ? ["", p] : new[] { p }));
    }

    /// <summary>A decoded name or value as a form writes it: unreserved ASCII as is (or, now and then, encoded), the rest as UTF-8 percent-escapes.</summary>
    public string Encode(string text)
    {
        var encoded = new StringBuilder();
        foreach (var b in Encoding.UTF8.GetBytes(text))
        {
            var unreserved = b is (>= (byte)'a' and <= (byte)'z') or (>= (byte)'A' and <= (byte)'Z') or (>= (byte)'0' and <= (byte)'9') or (byte)'-' or (byte)'_' or (byte)'.' or (byte)'~';
            if (b == ' ' && random.Next(3) != 0)
            {
                encoded.Append('+');
            }
            else if (unreserved && random.Next(10) != 0)
            {
                encoded.Append((char)b);
            }
            else
            {
                encoded.Append('%').Append(b.ToString(random.Next(2) == 0 ? "X2" : "x2", System.Globalization.CultureInfo.InvariantCulture));
            }
        }

        return encoded.ToString();
    }
}
