using System.Globalization;
using System.Text;

namespace ProtoHttp.FunctionalTests.Hardening;

/// <summary>
/// Writes <see cref="SpecimenText"/> as an XML document by hand, in the many ways docs/protocol.md section 4 says a
/// reader accepts: any root name, an optional declaration, proto or JSON element names, fields in any order (a
/// repeated field's items keep theirs), whitespace between elements and around non-string values, and string text
/// escaped as entities, character references or CDATA.
/// </summary>
public sealed class SpecimenXmlWriter(Random random)
{
    public string Write(IReadOnlyList<SpecimenText> fields)
    {
        var xml = new StringBuilder();
        if (random.Next(4) == 0)
        {
            xml.Append("<?xml version=\"1.0\" encoding=\"utf-8\"?>");
        }

        var root = random.Pick(new[] { "root", "Specimen", "x" });
        xml.Append('<').Append(root).Append('>');
        WriteFields(xml, fields);
        return xml.Append("</").Append(root).Append('>').ToString();
    }

    private void WriteFields(StringBuilder xml, IReadOnlyList<SpecimenText> fields)
    {
        // Fields in a random order, each field's elements together and in their own order (a repeated field's items).
        foreach (var field in fields.GroupBy(f => f.Name).OrderBy(_ => random.Next()).SelectMany(g => g))
        {
            if (random.Next(5) == 0)
            {
                xml.Append(random.Pick(new[] { "\n", "  ", "\r\n\t" }));
            }

            switch (field)
            {
                case SpecimenText.Leaf leaf:
                    Element(xml, Name(leaf.Name, leaf.JsonName), () => Value(xml, leaf));
                    break;
                case SpecimenText.Message message:
                    Element(xml, Name(message.Name, message.JsonName), () => WriteFields(xml, message.Fields));
                    break;
                case SpecimenText.MapEntry entry:
                    Element(xml, Name(entry.Name, entry.JsonName), () => WriteFields(xml, [entry.Key, entry.Value]));
                    break;
            }
        }
    }

    private static void Element(StringBuilder xml, string name, Action content)
    {
        xml.Append('<').Append(name).Append('>');
        content();
        xml.Append("</").Append(name).Append('>');
    }

    private string Name(string proto, string json) => random.Next(2) == 0 ? proto : json;

    private void Value(StringBuilder xml, SpecimenText.Leaf leaf)
    {
        if (leaf.Kind != LeafKind.Text)
        {
            // Whitespace around a non-string value is ignored (docs/protocol.md section 9, XML input).
            var pad = random.Next(4) == 0 ? random.Pick(new[] { " ", "\n", "\t " }) : "";
            xml.Append(pad).Append(Escaped(leaf.Value, references: false)).Append(pad);
        }
        else if (random.Next(4) == 0 && !leaf.Value.Contains("]]>", StringComparison.Ordinal) && !leaf.Value.Contains('\r'))
        {
            xml.Append("<![CDATA[").Append(leaf.Value).Append("]]>");
        }
        else
        {
            xml.Append(Escaped(leaf.Value, references: random.Next(3) == 0));
        }
    }

    /// <summary>The markup characters as entities, a carriage return as a reference (a parser turns a raw one into a line feed), and with <paramref name="references"/> every non-ASCII character as a numeric character reference.</summary>
    private string Escaped(string text, bool references)
    {
        var escaped = new StringBuilder(text.Length);
        for (var i = 0; i < text.Length; i++)
        {
            var c = text[i];
            escaped.Append(c switch
            {
                '&' => "&amp;",
                '<' => "&lt;",
                '>' when i >= 2 && text[i - 1] == ']' && text[i - 2] == ']' => "&gt;", // "]]>" may not stand in text
                '>' => random.Next(2) == 0 ? "&gt;" : ">",
                '"' when references => "&quot;",
                '\r' => "&#xD;",
                _ when references && char.IsHighSurrogate(c) => $"&#x{char.ConvertToUtf32(c, text[++i]):X};",
                _ when references && c > 0x7F => random.Next(2) == 0 ? $"&#{(int)c};" : string.Create(CultureInfo.InvariantCulture, $"&#x{(int)c:x};"),
                _ => c.ToString(),
            });
        }

        return escaped.ToString();
    }
}
